import { outboxIdle } from '../../src/email/outbox-worker.ts';
import type { MailMessage } from '../../src/lib/mailer.ts';
import type { TestApp } from './app.ts';
import { TEST_PUBLIC_URL } from './app.ts';

// Affiliate fixtures: sign up through the real function and sign in through the real endpoint.

let counter = 0;

export interface TestAffiliate {
  email: string;
  password: string;
  affiliateId: string;
  /** Cookie header of the signed-in session. */
  cookie: string;
}

export function signupPayload(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    email: `affiliate${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`,
    password: 'correct horse battery',
    firstName: 'Ada',
    lastName: 'Lovelace',
    phone: '',
    companyName: '',
    website: '',
    paymentMethod: 'later',
    paymentDetails: null,
    termsAccepted: true,
    language: 'en',
    ...overrides,
  };
}

/** Cookie header from a response's Set-Cookie headers. */
export function cookieFrom(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.map((line) => line.split(';', 1)[0]).join('; ');
}

export async function callFn(t: TestApp, name: string, data: unknown, cookie?: string, ip = '127.0.0.1') {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/fn/${name}`,
    headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL, ...(cookie ? { cookie } : {}) },
    remoteAddress: ip,
    payload: JSON.stringify({ data }),
  });
  return {
    status: response.statusCode,
    body: response.json() as { result?: any; error?: { status: string; message: string; details?: any } },
    headers: response.headers,
  };
}

export async function createTestAffiliate(t: TestApp, overrides: Record<string, unknown> = {}): Promise<TestAffiliate> {
  const payload = signupPayload(overrides);
  // Each signup from its own address: the per-IP signup limit is part of what is tested elsewhere.
  const ip = `10.9.${Math.floor(counter / 250)}.${counter % 250}`;
  const response = await callFn(t, 'createAffiliate', payload, undefined, ip);
  if (response.status !== 200) throw new Error(`signup failed: ${JSON.stringify(response.body)}`);
  return {
    email: payload.email as string,
    password: payload.password as string,
    affiliateId: response.body.result.affiliateId,
    cookie: cookieFrom(response.headers['set-cookie']),
  };
}

export async function signIn(t: TestApp, email: string, password: string, ip = '127.0.0.1') {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL },
    remoteAddress: ip,
    payload: JSON.stringify({ email, password }),
  });
  return {
    status: response.statusCode,
    body: response.json() as any,
    cookie: cookieFrom(response.headers['set-cookie']),
  };
}

// Rows the dashboard adds up, written directly (clicks, conversions, payouts come from jobs and
// webhooks that tests of the dashboard do not need to drive). Times are explicit: tests move the clock.

let rowCounter = 0;
const nextId = (prefix: string) => `${prefix}-${++rowCounter}-${Math.random().toString(36).slice(2, 8)}`;

/** The id of a referral code (upper-case) in the database. */
export async function codeId(t: TestApp, code: string): Promise<number> {
  const { rows } = await t.database.sql.query<{ id: number }>(
    'SELECT id::int AS id FROM referral_codes WHERE code = $1',
    [code],
  );
  if (!rows[0]) throw new Error(`no referral code ${code}`);
  return rows[0].id;
}

/** Inserts a referral code for the affiliate without the function (e.g. to set its creation time). */
export async function insertCode(
  t: TestApp,
  affiliateId: string,
  options: { code?: string; description?: string | null; createdAt?: Date } = {},
) {
  const code = options.code ?? `T${String(++rowCounter).padStart(7, '0')}`;
  const { rows } = await t.database.sql.query<{ id: number }>(
    'INSERT INTO referral_codes (code, affiliate_id, description, created_at) VALUES ($1, $2, $3, $4) RETURNING id::int AS id',
    [code, affiliateId, options.description ?? null, (options.createdAt ?? t.clock.now).toISOString()],
  );
  return { code, id: rows[0]!.id };
}

/**
 * Inserts visits of a code: `counted` of them counted clicks (each its own visitor), `uncounted` more
 * stored but not counted (repeat visits), `bots` bot visits. All at `at` (default: the clock).
 */
export async function insertVisits(
  t: TestApp,
  codeIdValue: number,
  counts: { counted?: number; uncounted?: number; bots?: number; at?: Date; visitorPrefix?: string },
) {
  const at = counts.at ?? t.clock.now;
  const hour = new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);
  const prefix = counts.visitorPrefix ?? nextId('visitor');
  const kinds = [
    ...Array.from({ length: counts.counted ?? 0 }, () => 'counted'),
    ...Array.from({ length: counts.uncounted ?? 0 }, () => 'uncounted'),
    ...Array.from({ length: counts.bots ?? 0 }, () => 'bot'),
  ];
  for (const [index, kind] of kinds.entries()) {
    const visitor = kind === 'uncounted' ? `${prefix}-repeat` : `${prefix}-${index}`;
    const { rows } = await t.database.sql.query<{ id: number }>(
      `INSERT INTO clicks (tracking_id, type, code, referral_code_id, visitor_key, is_bot, counted, created_at)
       SELECT $1, 'ref', code, id, $3, $4, $5, $6 FROM referral_codes WHERE id = $2 RETURNING id::int AS id`,
      [nextId('track'), codeIdValue, visitor, kind === 'bot', kind === 'counted', at.toISOString()],
    );
    if (kind === 'counted') {
      await t.database.sql.query(
        'INSERT INTO click_counts (referral_code_id, visitor_key, hour_bucket, click_id) VALUES ($1, $2, $3, $4)',
        [codeIdValue, visitor, hour.toISOString(), rows[0]!.id],
      );
    }
  }
}

export interface ConversionFixture {
  codeId?: number | null;
  cents?: number;
  status?: 'pending' | 'approved' | 'paid' | 'reversed';
  occurredAt?: Date;
  approvedAt?: Date | null;
  payoutId?: string | null;
}

export async function insertConversion(
  t: TestApp,
  affiliateId: string,
  options: ConversionFixture = {},
): Promise<number> {
  const cents = options.cents ?? 200;
  const { rows } = await t.database.sql.query<{ id: number }>(
    `INSERT INTO conversions (source_event_id, app_user_id, affiliate_id, referral_code_id, occurred_at, commission_cents, rate_tier, status, approved_at, payout_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id::int AS id`,
    [
      nextId('event'),
      nextId('app-user'),
      affiliateId,
      options.codeId ?? null,
      (options.occurredAt ?? t.clock.now).toISOString(),
      cents,
      cents > 200 ? 'premium' : 'standard',
      options.status ?? 'pending',
      options.approvedAt === undefined ? null : (options.approvedAt?.toISOString() ?? null),
      options.payoutId ?? null,
    ],
  );
  return rows[0]!.id;
}

export async function insertConversions(
  t: TestApp,
  affiliateId: string,
  count: number,
  options: ConversionFixture = {},
) {
  for (let i = 0; i < count; i++) await insertConversion(t, affiliateId, options);
}

export async function insertPayout(
  t: TestApp,
  affiliateId: string,
  options: {
    amountCents: number;
    status: 'scheduled' | 'sent' | 'paid' | 'failed';
    periodStart: string;
    periodEnd?: string;
    scheduledFor?: string;
    method?: 'paypal' | 'bank_transfer';
    paidAt?: Date | null;
  },
): Promise<string> {
  const { rows } = await t.database.sql.query<{ id: string }>(
    `INSERT INTO payouts (affiliate_id, period_start, period_end, amount_cents, method, method_snapshot, status, scheduled_for, paid_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id::text AS id`,
    [
      affiliateId,
      options.periodStart,
      options.periodEnd ?? options.periodStart,
      options.amountCents,
      options.method ?? 'paypal',
      JSON.stringify({ type: options.method ?? 'paypal' }),
      options.status,
      options.scheduledFor ?? options.periodEnd ?? options.periodStart,
      options.paidAt?.toISOString() ?? null,
    ],
  );
  return rows[0]!.id;
}

export async function insertAdjustment(
  t: TestApp,
  affiliateId: string,
  options: { cents: number; payoutId?: string | null; createdAt?: Date },
) {
  await t.database.sql.query(
    'INSERT INTO commission_adjustments (affiliate_id, amount_cents, reason, payout_id, created_at) VALUES ($1, $2, $3, $4, $5)',
    [
      affiliateId,
      options.cents,
      'test adjustment',
      options.payoutId ?? null,
      (options.createdAt ?? t.clock.now).toISOString(),
    ],
  );
}

/**
 * Asks for a reset link as the forgotten-password form does, from `ip`, and answers the token e-mailed
 * to `email` (read from `sent`, the test's memory mailer, which it empties first).
 */
export async function requestResetToken(t: TestApp, sent: MailMessage[], email: string, ip: string): Promise<string> {
  sent.length = 0;
  const request = await t.app.inject({
    method: 'POST',
    url: '/api/auth/request-password-reset',
    headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL },
    remoteAddress: ip,
    payload: { email, redirectTo: '/affiliate/reset-password' },
  });
  if (request.statusCode !== 200) throw new Error(`the reset link was refused: ${request.statusCode}`);
  await outboxIdle(t.context);
  const text = sent.find((message) => message.to === email)?.text ?? '';
  const token = /token=([^&\s]+)/.exec(text)?.[1];
  if (!token) throw new Error('no reset link was e-mailed');
  return decodeURIComponent(token);
}
