import { latestPayday } from '@skanova/shared/payouts/payday';
import { VISITOR_SESSION_COOKIE } from '@skanova/shared/site/constants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveDueCommissions } from '../src/domain/commission-approval.ts';
import { reconcileLedger } from '../src/domain/ledger.ts';
import { backfillReviewIdentities } from '../src/domain/review-backfill.ts';
import { disposableDomainOf } from '../src/domain/review-signals.ts';
import { runPayouts } from '../src/features/payouts/payout-run.ts';
import { type TestApp, TEST_PUBLIC_URL, createTestApp } from './helpers/app.ts';
import { callFn, cookieFrom, insertCode, insertConversions, signupPayload } from './helpers/affiliates.ts';
import { type TestOperator, createTestOperator } from './helpers/operators.ts';
import { anonymousId, attributeInstall, postWebhook, purchaseEvent, refundEvent } from './helpers/revenuecat.ts';
import { IPHONE_USER_AGENT, createVisit } from './helpers/visits.ts';

// The fraud review (docs/product/review.md): each signal raised by a scenario and not by its near
// miss; a hold keeps commissions out of a payout run until approved, then the next run pays them;
// rejection reverses them, a ban disables the account; the default group's flag-only policy moves
// no money; each decision audited; evidence without personal data; the affiliate sees an amount
// under review and nothing of the signals.

const DAY_MS = 86_400_000;
let t: TestApp;
let operator: TestOperator;
let ipCounter = 0;

beforeAll(async () => {
  t = await createTestApp({ env: { REVENUECAT_WEBHOOK_AUTH: 'Bearer rc-test-webhook-secret-0123456789' } });
  t.clock.now = new Date('2032-03-03T10:00:00.000Z');
  operator = await createTestOperator(t);
});
afterAll(() => t.close());

function nextIp(): string {
  ipCounter += 1;
  return `10.61.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

interface Signed {
  affiliateId: string;
  email: string;
  cookie: string;
  ip: string;
  code: string;
}

/** Signs up from its own address (or `ip`), with a referral code. */
async function affiliate(overrides: Record<string, unknown> = {}, ip = nextIp()): Promise<Signed> {
  const payload = signupPayload(overrides);
  const response = await callFn(t, 'createAffiliate', payload, undefined, ip);
  if (response.status !== 200) throw new Error(JSON.stringify(response.body));
  const affiliateId = response.body.result.affiliateId as string;
  const { code } = await insertCode(t, affiliateId);
  return { affiliateId, email: payload.email as string, cookie: cookieFrom(response.headers['set-cookie']), ip, code };
}

async function admin(name: string, data: unknown) {
  return callFn(t, name, data, operator.cookie);
}

interface SignalRow {
  kind: string;
  action: string;
  evidence: Record<string, unknown>;
  case_id: string;
}

async function signalsOf(affiliateId: string): Promise<SignalRow[]> {
  const { rows } = await t.database.sql.query<SignalRow>(
    'SELECT kind, action, evidence, case_id::text AS case_id FROM review_signals WHERE affiliate_id = $1 ORDER BY id',
    [affiliateId],
  );
  return rows.map((row) => ({
    ...row,
    evidence: typeof row.evidence === 'string' ? JSON.parse(row.evidence) : row.evidence,
  }));
}

/** A visit of `code` through storePreInstallData from `ip`, with the user agent and cookie given. */
async function visit(code: string, options: { ip: string; userAgent?: string; cookie?: string; session?: string }) {
  const userAgent = options.userAgent ?? IPHONE_USER_AGENT;
  const data = createVisit({
    code,
    sessionId: options.session ?? `review-session-${++ipCounter}-abcdefgh`,
    userAgent,
    timestamp: t.clock.now.toISOString(),
  });
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/fn/storePreInstallData',
    headers: {
      'content-type': 'application/json',
      origin: TEST_PUBLIC_URL,
      'user-agent': userAgent,
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    remoteAddress: options.ip,
    payload: JSON.stringify({ data }),
  });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { result: { trackingId: string } }).result.trackingId;
}

/** A new app user attributed to `code` (typed) from `ip`; answers the app user id. */
async function install(code: string, ip = nextIp(), extra: Record<string, unknown> = {}): Promise<string> {
  const appUserId = anonymousId();
  const response = await attributeInstall(t, { appUserId, platform: 'ios', referralCode: code, ...extra }, ip);
  expect(response.body.result?.attributed, JSON.stringify(response.body)).toBe(true);
  return appUserId;
}

async function buy(appUserId: string, overrides: Record<string, unknown> = {}) {
  const event = purchaseEvent(appUserId, overrides, t.clock.now);
  const response = await postWebhook(t, event);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return event;
}

describe('signals: each raised by its scenario, and not by its near miss', () => {
  it('self-referral: an install from the signup address; not from another address', async () => {
    const a = await affiliate();
    await install(a.code, nextIp());
    expect(await signalsOf(a.affiliateId)).toEqual([]);
    // An endpoint subscribed to the review's event (never delivered to here: only the events are read).
    await t.database.sql.query(
      `INSERT INTO webhook_endpoints (url, event_types, secret_sealed) VALUES ('https://hooks.example.com/review', $1::text[], 'sealed')`,
      [['review.opened']],
    );
    await install(a.code, a.ip);
    const [signal] = await signalsOf(a.affiliateId);
    expect(signal).toMatchObject({
      kind: 'self-referral',
      action: 'flag',
      evidence: { kind: 'self-referral', matches: ['signup-ip'], code: a.code, installId: expect.any(String) },
    });
    // The case it opened is announced to the operators' webhooks, in its transaction.
    const { rows: announced } = await t.database.sql.query<{ data: unknown }>(
      `SELECT data FROM webhook_events WHERE type = 'review.opened' AND affiliate_id = $1`,
      [a.affiliateId],
    );
    expect(announced).toEqual([
      { data: { reviewId: expect.any(String), affiliateId: a.affiliateId, signal: 'self-referral' } },
    ]);
  });

  it('self-referral: a visit from the signed-in browser of the code’s affiliate; not another affiliate’s', async () => {
    const a = await affiliate();
    const b = await affiliate();
    // B, signed in, opens A's link: nothing about A, nothing about B.
    await visit(a.code, { ip: nextIp(), cookie: b.cookie });
    expect(await signalsOf(a.affiliateId)).toEqual([]);
    expect(await signalsOf(b.affiliateId)).toEqual([]);
    // A, signed in, opens their own link: the visit is marked, and an install from it is a self-referral.
    const trackingId = await visit(a.code, { ip: nextIp(), cookie: a.cookie });
    const { rows } = await t.database.sql.query<{ self_visit: boolean }>(
      'SELECT self_visit FROM clicks WHERE tracking_id = $1',
      [trackingId],
    );
    expect(rows[0]?.self_visit).toBe(true);
    const appUserId = anonymousId();
    await attributeInstall(t, { appUserId, platform: 'ios', trackingId }, nextIp());
    expect((await signalsOf(a.affiliateId)).map((s) => s.evidence.matches)).toEqual([
      ['signed-in-browser'],
      ['signed-in-browser'],
    ]);
  });

  it('self-referral: the store’s e-mail of the buyer is the affiliate’s; not someone else’s', async () => {
    const a = await affiliate();
    await buy(await install(a.code));
    expect(await signalsOf(a.affiliateId)).toEqual([]);
    await buy(await install(a.code), {
      subscriber_attributes: { $email: { value: a.email.toUpperCase(), updated_at_ms: 1 } },
    });
    expect((await signalsOf(a.affiliateId)).map((s) => s.evidence.matches)).toEqual([['email']]);
  });

  it('shared payout account: the same PayPal address on two affiliates, whatever its case; not a different one', async () => {
    const a = await affiliate({ paymentMethod: 'paypal', paymentDetails: { paypalEmail: 'shared.payee@example.net' } });
    const c = await affiliate({ paymentMethod: 'paypal', paymentDetails: { paypalEmail: 'other.payee@example.net' } });
    expect(await signalsOf(a.affiliateId)).toEqual([]);
    expect(await signalsOf(c.affiliateId)).toEqual([]);
    const b = await affiliate();
    const updated = await callFn(
      t,
      'updateAffiliatePaymentMethod',
      { paymentMethod: 'paypal', paymentDetails: { paypalEmail: 'Shared.Payee@Example.NET' } },
      b.cookie,
    );
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    for (const [self, other] of [
      [a, b],
      [b, a],
    ] as const) {
      expect(await signalsOf(self.affiliateId)).toMatchObject([
        {
          kind: 'shared-payout-account',
          evidence: { method: 'paypal', affiliateCount: 2, otherAffiliateIds: [other.affiliateId] },
        },
      ]);
    }
    expect(await signalsOf(c.affiliateId)).toEqual([]);
  });

  it('shared payout account: the same IBAN, spaced or not; not another IBAN', async () => {
    const bank = (iban: string) => ({
      paymentMethod: 'bank_transfer',
      paymentDetails: { bankName: 'Example Bank', bankIban: iban, bic: 'BNPAFRPPXXX', accountHolder: 'Ada Lovelace' },
    });
    const a = await affiliate(bank('FR1420041010050500013M02606'));
    const near = await affiliate(bank('DE89370400440532013000'));
    expect(await signalsOf(near.affiliateId)).toEqual([]);
    const b = await affiliate(bank('fr14 2004 1010 0505 0001 3m02 606'));
    expect((await signalsOf(a.affiliateId)).map((s) => s.kind)).toEqual(['shared-payout-account']);
    expect((await signalsOf(b.affiliateId)).map((s) => s.evidence.method)).toEqual(['bank_transfer']);
  });

  it('click burst: eleven counted clicks from one address in ten minutes; not ten', async () => {
    const a = await affiliate();
    const near = await affiliate();
    const ip = nextIp();
    const nearIp = nextIp();
    for (let i = 0; i < 10; i += 1) {
      await visit(a.code, { ip });
      await visit(near.code, { ip: nearIp });
      t.clock.advance(30_000);
    }
    expect(await signalsOf(a.affiliateId)).toEqual([]);
    await visit(a.code, { ip });
    // The near miss's eleventh click comes after the window of its first.
    t.clock.advance(6 * 60_000);
    await visit(near.code, { ip: nearIp });
    expect(await signalsOf(near.affiliateId)).toEqual([]);
    expect(await signalsOf(a.affiliateId)).toMatchObject([
      {
        kind: 'click-burst',
        evidence: { source: 'ip', clicks: 11, threshold: 10, windowMinutes: 10, codes: [a.code] },
      },
    ]);
  });

  it('click burst: eleven counted clicks from one device over the affiliate’s codes, each from its own address; not ten', async () => {
    const a = await affiliate();
    const near = await affiliate();
    const codes = [a.code];
    const nearCodes = [near.code];
    for (let i = 0; i < 10; i += 1) {
      codes.push((await insertCode(t, a.affiliateId)).code);
      nearCodes.push((await insertCode(t, near.affiliateId)).code);
    }
    // One counted click per code and visitor an hour: the device's eleventh counted click needs an eleventh code.
    for (let i = 0; i < 10; i += 1) {
      await visit(codes[i]!, { ip: nextIp(), session: 'burst-device-session-a' });
      await visit(nearCodes[i]!, { ip: nextIp(), session: 'burst-device-session-near' });
      t.clock.advance(30_000);
    }
    expect(await signalsOf(a.affiliateId)).toEqual([]);
    await visit(codes[10]!, { ip: nextIp(), session: 'burst-device-session-a' });
    expect(await signalsOf(near.affiliateId)).toEqual([]);
    expect(await signalsOf(a.affiliateId)).toMatchObject([
      { kind: 'click-burst', evidence: { source: 'device', clicks: 11, threshold: 10, windowMinutes: 10 } },
    ]);
    // Raised once a day: the twelfth click adds nothing.
    await visit(codes[10]!, { ip: nextIp(), session: 'burst-device-session-a-2' });
    expect(await signalsOf(a.affiliateId)).toHaveLength(1);
  });

  it('click burst: eleven visits from a data centre’s user agent; not ten', async () => {
    const a = await affiliate();
    const near = await affiliate();
    for (let i = 0; i < 11; i += 1) {
      await visit(a.code, { ip: nextIp(), userAgent: 'python-requests/2.31.0' });
      if (i < 10) await visit(near.code, { ip: nextIp(), userAgent: 'curl/8.5.0' });
    }
    expect(await signalsOf(near.affiliateId)).toEqual([]);
    expect(await signalsOf(a.affiliateId)).toMatchObject([
      { kind: 'click-burst', evidence: { source: 'data-centre', clicks: 11, threshold: 10 } },
    ]);
  });

  it('click burst: eleven counted clicks from one address arriving together (their batches checked after commit); not ten', async () => {
    const a = await affiliate();
    const near = await affiliate();
    const ip = nextIp();
    const nearIp = nextIp();
    await Promise.all([
      ...Array.from({ length: 11 }, () => visit(a.code, { ip })),
      ...Array.from({ length: 10 }, () => visit(near.code, { ip: nearIp })),
    ]);
    expect(await signalsOf(near.affiliateId)).toEqual([]);
    expect(await signalsOf(a.affiliateId)).toMatchObject([
      { kind: 'click-burst', evidence: { source: 'ip', clicks: 11, threshold: 10, codes: [a.code] } },
    ]);
  });

  it('click burst: raised once per affiliate, source and UTC day — not for the affiliate alone, nor for ever', async () => {
    const a = await affiliate();
    const b = await affiliate();
    const ip = nextIp();
    const burst = async (code: string) => {
      for (let i = 0; i < 11; i += 1) await visit(code, { ip });
    };
    await burst(a.code);
    expect(await signalsOf(a.affiliateId)).toHaveLength(1);
    // Another affiliate's burst from the same address is its own.
    await burst(b.code);
    expect(await signalsOf(b.affiliateId)).toMatchObject([{ kind: 'click-burst', evidence: { source: 'ip' } }]);
    // A code of A's not seen today: the database says A's burst was raised; nothing more.
    const { code: second } = await insertCode(t, a.affiliateId);
    await visit(second, { ip });
    expect(await signalsOf(a.affiliateId)).toHaveLength(1);
    // The next UTC day, a new burst is a new signal.
    t.clock.advance(DAY_MS);
    await burst(a.code);
    expect((await signalsOf(a.affiliateId)).map((s) => s.evidence.source)).toEqual(['ip', 'ip']);
  });

  it('click burst: a visit costs its batch and one check, no session lookup without a session cookie; nothing more once its sources are raised today', async () => {
    const a = await affiliate();
    const sql = t.database.sql;
    const query = sql.query;
    const sent: string[] = [];
    sql.query = ((text: string, ...rest: unknown[]) => {
      // Not the visit's: the shared rate limit's counts, written for many requests at once (on PostgreSQL).
      if (!text.includes('rate_limits'))
        sent.push(text.includes('record_clicks(') ? 'batch' : text.includes('click_burst_probe(') ? 'check' : text);
      return (query as (...args: unknown[]) => unknown).call(sql, text, ...rest);
    }) as typeof sql.query;
    const statementsOf = async (work: () => Promise<unknown>) => {
      sent.length = 0;
      await work();
      return [...sent];
    };
    try {
      const ip = nextIp();
      // A returning visitor: the landing page's own cookie, no session cookie.
      const cookie = `${VISITOR_SESSION_COOKIE}=returning-visitor-0123456789`;
      const session = 'cost-session-0123456789';
      expect(await statementsOf(() => visit(a.code, { ip, cookie, session }))).toEqual(['batch', 'check']);
      // The same visitor again within the hour: not counted, nothing to check.
      expect(await statementsOf(() => visit(a.code, { ip, cookie, session }))).toEqual(['batch']);
      // A's bursts raised elsewhere (another server process): the next check learns it from the database …
      const day = t.clock.now.toISOString().slice(0, 10);
      await t.database.sql.query(
        `WITH opened AS (INSERT INTO review_cases (affiliate_id, status, opened_at) VALUES ($1, 'open', $2) RETURNING id)
         INSERT INTO review_signals (case_id, affiliate_id, kind, action, evidence, dedupe_key, detected_at)
         SELECT id, $1, 'click-burst', 'flag', '{}', key, $2 FROM opened, unnest($3::text[]) AS key`,
        [a.affiliateId, t.clock.now.toISOString(), [`click-burst:ip:${day}`, `click-burst:device:${day}`]],
      );
      expect(await statementsOf(() => visit(a.code, { ip: nextIp() }))).toEqual(['batch', 'check']);
      // … and asks it nothing more today.
      expect(await statementsOf(() => visit(a.code, { ip: nextIp() }))).toEqual(['batch']);
    } finally {
      sql.query = query;
    }
  });

  it('refund rate: four of ten first purchases refunded; not three of ten, nor five of nine', async () => {
    const run = async (purchases: number, refunds: number) => {
      const a = await affiliate();
      const events = [];
      for (let i = 0; i < purchases; i += 1) events.push(await buy(await install(a.code)));
      for (const event of events.slice(0, refunds)) await postWebhook(t, refundEvent(event));
      return signalsOf(a.affiliateId);
    };
    expect(await run(10, 3)).toEqual([]);
    expect(await run(9, 5)).toEqual([]);
    expect(await run(10, 4)).toMatchObject([
      {
        kind: 'refund-rate',
        evidence: { refunded: 4, firstPurchases: 10, ratePercent: 40, thresholdPercent: 30, minimumConversions: 10 },
      },
    ]);
  });

  it('disposable e-mail: a signup from a disposable-address service (from the package’s list); not from another domain', async () => {
    const near = await affiliate({ email: `near-${Date.now()}@example.com` });
    expect(await signalsOf(near.affiliateId)).toEqual([]);
    const a = await affiliate({ email: `burner-${Date.now()}@mailinator.com` });
    expect(await signalsOf(a.affiliateId)).toMatchObject([
      { kind: 'disposable-email', evidence: { kind: 'disposable-email', domain: 'mailinator.com' } },
    ]);
    expect(disposableDomainOf('someone@mail.mailinator.com')).toBe('mailinator.com');
    expect(disposableDomainOf('someone@gmail.com')).toBeNull();
  });

  it('evidence holds no personal data: no address, no IP, no hash, no IBAN', async () => {
    const { rows } = await t.database.sql.query<{ evidence: unknown }>('SELECT evidence FROM review_signals');
    expect(rows.length).toBeGreaterThan(10);
    const { rows: secrets } = await t.database.sql.query<{ value: string }>(
      `SELECT email_hash AS value FROM affiliates WHERE email_hash IS NOT NULL
       UNION ALL SELECT signup_ip_hash FROM affiliates WHERE signup_ip_hash IS NOT NULL
       UNION ALL SELECT payout_account_hash FROM payment_methods WHERE payout_account_hash IS NOT NULL`,
    );
    for (const { evidence } of rows) {
      const text = typeof evidence === 'string' ? evidence : JSON.stringify(evidence);
      expect(text).not.toMatch(/@|\b10\.\d+\.\d+\.\d+\b|FR14|DE89/i);
      for (const { value } of secrets) expect(text).not.toContain(value);
    }
  });
});

describe('the default group flags only', () => {
  it('a flagged self-referral moves no money: the commission is pending as any other, nothing under review', async () => {
    const a = await affiliate();
    await buy(await install(a.code, a.ip));
    const [signal] = await signalsOf(a.affiliateId);
    expect(signal).toMatchObject({ kind: 'self-referral', action: 'flag' });
    const { rows } = await t.database.sql.query<{ status: string; review_hold: boolean }>(
      'SELECT status, review_hold FROM conversions WHERE affiliate_id = $1',
      [a.affiliateId],
    );
    expect(rows).toEqual([{ status: 'pending', review_hold: false }]);
    const { rows: entries } = await t.database.sql.query<{ kind: string }>(
      'SELECT kind FROM ledger_entries WHERE affiliate_id = $1 ORDER BY id',
      [a.affiliateId],
    );
    expect(entries.map((entry) => entry.kind)).toEqual(['earned']);
    const stats = await callFn(t, 'getAffiliateStats', {}, a.cookie);
    expect(stats.body.result).toMatchObject({ totalEarningsCents: 200, unpaidEarningsCents: 200, underReviewCents: 0 });
  });
});

describe('holding, approving, rejecting, banning', () => {
  let held: Signed;
  let caseId: string;

  beforeAll(async () => {
    const set = await admin('adminSetReviewPolicy', { groupId: 'default', signal: 'self-referral', action: 'hold' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.result.groups[0]).toMatchObject({ groupId: 'default', actions: { 'self-referral': 'hold' } });
  });

  it('a held self-referral stays out of a payout run; approving it puts it in the next one', async () => {
    t.clock.now = new Date('2032-05-03T10:00:00.000Z');
    held = await affiliate({ paymentMethod: 'paypal', paymentDetails: { paypalEmail: 'held.payee@example.net' } });
    for (let i = 0; i < 10; i += 1) await buy(await install(held.code, held.ip));
    const { rows } = await t.database.sql.query<{ review_hold: boolean; n: number }>(
      'SELECT review_hold, count(*)::int AS n FROM conversions WHERE affiliate_id = $1 GROUP BY review_hold',
      [held.affiliateId],
    );
    expect(rows).toEqual([{ review_hold: true, n: 10 }]);

    // The affiliate sees the amount under review, and nothing of why.
    const stats = await callFn(t, 'getAffiliateStats', {}, held.cookie);
    expect(stats.body.result).toMatchObject({ underReviewCents: 2000, unpaidEarningsCents: 2000 });
    expect(JSON.stringify(stats.body.result)).not.toMatch(/self-referral|signal|review_|case/i);

    // The hold ends, the payday comes: nothing is paid.
    t.clock.now = new Date('2032-06-10T10:00:00.000Z');
    await approveDueCommissions(t.context);
    t.clock.now = new Date('2032-07-15T06:00:00.000Z');
    await runPayouts(t.context, latestPayday(t.clock.now));
    const payoutsOf = async () =>
      (
        await t.database.sql.query<{ amount_cents: number }>(
          'SELECT amount_cents::int AS amount_cents FROM payouts WHERE affiliate_id = $1 ORDER BY created_at',
          [held.affiliateId],
        )
      ).rows;
    expect(await payoutsOf()).toEqual([]);
    expect(await reconcileLedger(t.database.sql, held.affiliateId)).toEqual([]);

    // The queue shows the case; its page shows the signals and the held amount.
    const queue = await admin('adminListReviewCases', {});
    const listed = queue.body.result.items.find(
      (item: { affiliateId: string }) => item.affiliateId === held.affiliateId,
    );
    expect(listed).toMatchObject({ status: 'open', signalCount: 10, kinds: ['self-referral'], heldCents: 2000 });
    caseId = listed.id;
    const page = await admin('adminGetReviewCase', { caseId });
    expect(page.body.result.commissions).toHaveLength(10);
    expect(page.body.result.signals[0]).toMatchObject({ kind: 'self-referral', action: 'hold' });

    // A decision needs a reason, in the form's shape.
    const noReason = await admin('adminDecideReviewCase', { caseId, decision: 'approve', reason: ' ' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error?.details?.fields).toEqual([
      { path: 'reason', key: 'admin:review.errors.reasonRequired' },
    ]);

    t.clock.now = new Date('2032-07-20T09:00:00.000Z');
    const approved = await admin('adminDecideReviewCase', {
      caseId,
      decision: 'approve',
      reason: 'Family member, checked',
    });
    expect(approved.body.result).toEqual({ caseId, status: 'approved', commissions: 10, cents: 2000 });
    const again = await admin('adminDecideReviewCase', { caseId, decision: 'reject', reason: 'Twice' });
    expect([again.status, again.body.error?.details?.code]).toEqual([400, 'case-decided']);
    const { rows: audit } = await t.database.sql.query<{ actor: string; details: unknown }>(
      "SELECT actor, details FROM audit_log WHERE action = 'review.approved' AND subject = $1",
      [caseId],
    );
    expect(audit).toEqual([
      {
        actor: operator.userId,
        details: expect.objectContaining({ affiliateId: held.affiliateId, reason: 'Family member, checked' }),
      },
    ]);

    const { rows: moved } = await t.database.sql.query<{ kind: string; n: number }>(
      `SELECT kind, count(*)::int AS n FROM ledger_entries WHERE affiliate_id = $1 GROUP BY kind ORDER BY kind`,
      [held.affiliateId],
    );
    expect(moved).toEqual([
      { kind: 'earned', n: 10 },
      { kind: 'held', n: 10 },
      { kind: 'released-from-review', n: 10 },
    ]);
    t.clock.now = new Date('2032-08-15T06:00:00.000Z');
    await runPayouts(t.context, latestPayday(t.clock.now));
    expect(await payoutsOf()).toEqual([{ amount_cents: 2000 }]);
    expect(await reconcileLedger(t.database.sql, held.affiliateId)).toEqual([]);
  });

  it('rejecting reverses the held commissions; banning also disables the account with the reason', async () => {
    t.clock.now = new Date('2032-09-03T10:00:00.000Z');
    const decide = async (decision: 'reject' | 'ban') => {
      const a = await affiliate();
      await insertConversions(t, a.affiliateId, 2, {
        status: 'approved',
        occurredAt: t.clock.now,
        approvedAt: t.clock.now,
      });
      await buy(await install(a.code, a.ip));
      const { rows } = await t.database.sql.query<{ id: string }>(
        "SELECT id::text AS id FROM review_cases WHERE affiliate_id = $1 AND status = 'open'",
        [a.affiliateId],
      );
      const result = await admin('adminDecideReviewCase', { caseId: rows[0]!.id, decision, reason: 'Own installs' });
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      // Only what the case held: the earlier commissions stay.
      expect(result.body.result).toMatchObject({ commissions: 1, cents: 200 });
      const { rows: statuses } = await t.database.sql.query<{ status: string; n: number }>(
        'SELECT status, count(*)::int AS n FROM conversions WHERE affiliate_id = $1 GROUP BY status ORDER BY status',
        [a.affiliateId],
      );
      expect(statuses).toEqual([
        { status: 'approved', n: 2 },
        { status: 'reversed', n: 1 },
      ]);
      expect(await reconcileLedger(t.database.sql, a.affiliateId)).toEqual([]);
      const { rows: last } = await t.database.sql.query<{ kind: string; from_account: string }>(
        'SELECT kind, from_account FROM ledger_entries WHERE affiliate_id = $1 ORDER BY id DESC LIMIT 1',
        [a.affiliateId],
      );
      expect(last[0]).toEqual({ kind: 'reversed', from_account: 'held' });
      return a;
    };
    await decide('reject');
    const banned = await decide('ban');
    const { rows } = await t.database.sql.query<{ banned: boolean; ban_reason: string }>(
      'SELECT u.banned, u.ban_reason FROM auth_users u JOIN affiliates a ON a.user_id = u.id WHERE a.id = $1',
      [banned.affiliateId],
    );
    expect(rows[0]).toEqual({ banned: true, ban_reason: 'Own installs' });
    const { rows: audit } = await t.database.sql.query<{ action: string }>(
      `SELECT action FROM audit_log WHERE action IN ('review.banned', 'affiliate.disabled')
         AND (subject = $1 OR details->>'affiliateId' = $1) ORDER BY id`,
      [banned.affiliateId],
    );
    expect(audit.map((entry) => entry.action)).toEqual(['affiliate.disabled', 'review.banned']);
  });

  it('a policy change is audited with the action it replaces', async () => {
    const { rows } = await t.database.sql.query<{ details: unknown }>(
      "SELECT details FROM audit_log WHERE action = 'review.policy-changed' AND subject = 'default' ORDER BY id",
    );
    expect(rows[0]?.details).toEqual({ signal: 'self-referral', action: 'hold', previousAction: 'flag' });
    const unknown = await admin('adminSetReviewPolicy', {
      groupId: 'no-such-group',
      signal: 'click-burst',
      action: 'hold',
    });
    expect(unknown.status).toBe(404);
  });

  it('a commission recorded while an affiliate-wide hold is open is held as it arrives', async () => {
    await admin('adminSetReviewPolicy', { groupId: 'default', signal: 'disposable-email', action: 'hold' });
    const a = await affiliate({ email: `later-${Date.now()}@mailinator.com` });
    await buy(await install(a.code));
    const stats = await callFn(t, 'getAffiliateStats', {}, a.cookie);
    expect(stats.body.result).toMatchObject({ underReviewCents: 200 });
    t.clock.advance(DAY_MS);
  });
});

describe('the hashes of rows written before the review', () => {
  it('are filled once by the job, as signup and a payment-method change compute them', async () => {
    const bank = await affiliate({
      paymentMethod: 'bank_transfer',
      paymentDetails: {
        bankName: 'Example Bank',
        bankIban: 'DE89 3704 0044 0532 0130 00',
        bic: 'COBADEFFXXX',
        accountHolder: 'Ada',
      },
    });
    const paypal = await affiliate({
      paymentMethod: 'paypal',
      paymentDetails: { paypalEmail: 'Before.Review@example.net' },
    });
    const ids = [bank.affiliateId, paypal.affiliateId];
    const read = async () =>
      (
        await t.database.sql.query<{ email_hash: string | null; payout_account_hash: string | null }>(
          `SELECT a.email_hash, m.payout_account_hash FROM affiliates a JOIN payment_methods m ON m.affiliate_id = a.id
           WHERE a.id = ANY($1::text[]) ORDER BY a.id`,
          [ids],
        )
      ).rows;
    const computed = await read();
    expect(computed.every((row) => row.email_hash && row.payout_account_hash)).toBe(true);
    await t.database.sql.query('UPDATE affiliates SET email_hash = NULL WHERE id = ANY($1::text[])', [ids]);
    await t.database.sql.query(
      'UPDATE payment_methods SET payout_account_hash = NULL WHERE affiliate_id = ANY($1::text[])',
      [ids],
    );
    const filled = await backfillReviewIdentities(t.context);
    expect(filled.affiliates).toBeGreaterThanOrEqual(2);
    expect(filled.paymentMethods).toBeGreaterThanOrEqual(2);
    expect(await read()).toEqual(computed);
    expect(await backfillReviewIdentities(t.context)).toEqual({ affiliates: 0, paymentMethods: 0 });
  });
});
