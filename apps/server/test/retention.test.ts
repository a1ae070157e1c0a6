import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxIdle } from '../src/email/outbox-worker.ts';
import { FINISHED_EMAIL_DAYS, type RetentionResult, runRetention } from '../src/jobs/retention.ts';
import { type TestApp, TEST_PUBLIC_URL, createTestApp, memoryMailer } from './helpers/app.ts';
import {
  type TestAffiliate,
  callFn,
  createTestAffiliate,
  insertAdjustment,
  insertCode,
  insertPayout,
  signIn,
} from './helpers/affiliates.ts';
import { outboxRows } from './helpers/email.ts';
import { IPHONE_USER_AGENT, createVisit } from './helpers/visits.ts';

// The retention rules (docs/product/rules-and-constants.md#retention): each rule on rows written for it, twice in a row with the
// same result, and the dashboard's totals unchanged by what the job clears.

const DAY_MS = 24 * 60 * 60 * 1000;
const EMPTY: RetentionResult = {
  clicksCleared: 0,
  attributedClicksCleared: 0,
  installsCleared: 0,
  affiliatesWarned: 0,
  affiliatesAnonymised: 0,
  affiliatesPurged: 0,
  revenuecatPayloadsTrimmed: 0,
  revenuecatEventsDeleted: 0,
  payoutsTrimmed: 0,
  payoutExportsDeleted: 0,
  emailsDeleted: 0,
};

function addYears(at: Date, years: number): Date {
  const date = new Date(at);
  date.setUTCFullYear(date.getUTCFullYear() + years);
  return date;
}

/** The test clock starts at the real time: rows the database dates itself (signup) agree with it. */
async function retentionApp() {
  const mail = memoryMailer();
  const t = await createTestApp({ mailer: mail.mailer });
  t.clock.now = new Date(Math.ceil(Date.now() / 1000) * 1000);
  return { t, mail, start: new Date(t.clock.now) };
}

async function query<T = Record<string, unknown>>(t: TestApp, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await t.database.sql.query<T>(sql, params)).rows;
}

describe('visitor data: clicks and installs', () => {
  let t: TestApp;
  let start: Date;
  let affiliate: TestAffiliate;
  let code: string;
  beforeAll(async () => {
    ({ t, start } = await retentionApp());
    affiliate = await createTestAffiliate(t);
    code = (await callFn(t, 'generateReferralCode', {}, affiliate.cookie)).body.result.code as string;
  });
  afterAll(() => t.close());

  let ipCounter = 0;
  async function visit(sessionId: string, at: Date): Promise<string> {
    t.clock.now = new Date(at);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/fn/storePreInstallData',
      remoteAddress: `198.51.100.${++ipCounter}`,
      headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL, 'user-agent': IPHONE_USER_AGENT },
      payload: JSON.stringify({
        data: createVisit({ code, sessionId, timestamp: at.toISOString(), query: { utm_source: 'insta' } }),
      }),
    });
    expect(response.statusCode).toBe(200);
    return response.json().result.trackingId as string;
  }

  async function clickOf(trackingId: string) {
    const [row] = await query(t, 'SELECT * FROM clicks WHERE tracking_id = $1', [trackingId]);
    return row!;
  }

  async function totals() {
    const stats = (await callFn(t, 'getAffiliateStats', null, affiliate.cookie)).body.result;
    const timeline = (await callFn(t, 'getAffiliateTimeline', null, affiliate.cookie)).body.result;
    const [rows] = await query<{ clicks: number; counts: number }>(
      t,
      'SELECT (SELECT count(*)::int FROM clicks) AS clicks, (SELECT count(*)::int FROM click_counts) AS counts',
    );
    return { totalClicks: stats.totalClicks, codes: stats.referralCodes, timeline, rows };
  }

  it('clears what describes the visitor of an old click not attributed, keeping the row and every total', async () => {
    const old = new Date(start.getTime() - 100 * DAY_MS);
    const oldVisits = [
      await visit('old-visitor-one-abcdef', old),
      await visit('old-visitor-one-abcdef', old),
      await visit('old-visitor-two-abcdef', old),
    ];
    const attributed = await visit('old-visitor-app-abcdef', old);
    const recent = await visit('recent-visitor-abcdef', new Date(start.getTime() - 10 * DAY_MS));
    const attributedClick = await clickOf(attributed);
    await query(
      t,
      `INSERT INTO installs (app_user_id, platform, click_id, referral_code_id, affiliate_id, method, confidence, ip_hash, device, attributed_at, created_at)
       VALUES ('app-user-old', 'ios', $1, $2, $3, 'tracking_id', 1, 'install-ip-hash', '{"model":"iPhone15,2"}', $4, $4),
              ('app-user-recent', 'ios', NULL, NULL, NULL, NULL, NULL, 'install-ip-hash-2', '{"model":"iPhone14,2"}', NULL, $5)`,
      [
        attributedClick.id,
        attributedClick.referral_code_id,
        affiliate.affiliateId,
        old.toISOString(),
        new Date(start.getTime() - 10 * DAY_MS).toISOString(),
      ],
    );
    t.clock.now = new Date(start);
    const before = await totals();
    expect(before.totalClicks).toBe(4);

    expect(await runRetention(t.context)).toEqual({ ...EMPTY, clicksCleared: 3, installsCleared: 1 });

    for (const trackingId of oldVisits) {
      expect(await clickOf(trackingId)).toMatchObject({
        tracking_id: trackingId,
        code,
        platform: 'ios',
        counted: expect.any(Boolean),
        session_id: null,
        visitor_key: null,
        ip_hash: null,
        user_agent: null,
        language: null,
        timezone: null,
        screen_resolution: null,
        color_depth: null,
        device_memory: null,
        hardware_concurrency: null,
        referrer: null,
        query: null,
        client_timestamp: null,
        personal_data_cleared_at: start,
      });
    }
    // Attributed (the evidence of a commission) and recent clicks keep their data.
    for (const trackingId of [attributed, recent]) {
      expect(await clickOf(trackingId)).toMatchObject({
        personal_data_cleared_at: null,
        user_agent: expect.any(String),
        ip_hash: expect.any(String),
        visitor_key: expect.any(String),
      });
    }
    // The counted clicks' keys no longer carry the visitor.
    const counted = await query<{ visitor_key: string; click_id: string }>(
      t,
      'SELECT cc.visitor_key, cc.click_id::text AS click_id FROM click_counts cc JOIN clicks c ON c.id = cc.click_id WHERE c.tracking_id = ANY($1::text[])',
      [oldVisits],
    );
    expect(counted).toHaveLength(2);
    for (const row of counted) expect(row.visitor_key).toBe(`cleared:${row.click_id}`);
    // Installs: the old one loses its IP hash and device, keeps its attribution.
    expect(
      await query(
        t,
        'SELECT app_user_id, ip_hash, device, click_id IS NOT NULL AS attributed FROM installs ORDER BY app_user_id',
      ),
    ).toEqual([
      { app_user_id: 'app-user-old', ip_hash: null, device: null, attributed: true },
      {
        app_user_id: 'app-user-recent',
        ip_hash: 'install-ip-hash-2',
        device: { model: 'iPhone14,2' },
        attributed: false,
      },
    ]);

    expect(await totals()).toEqual(before);
    expect(await runRetention(t.context)).toEqual(EMPTY);
    expect(await totals()).toEqual(before);
  });

  it('clears an attributed click with the payment records, after 5 years', async () => {
    t.clock.now = addYears(start, 5);
    const result = await runRetention(t.context);
    expect(result.attributedClicksCleared).toBe(1);
    expect(result.clicksCleared).toBe(1); // the recent one, 5 years on
    expect(await query(t, 'SELECT count(*)::int AS n FROM clicks WHERE personal_data_cleared_at IS NULL')).toEqual([
      { n: 0 },
    ]);
    expect((await runRetention(t.context)).attributedClicksCleared).toBe(0);
  });
});

describe('accounts: deleted and inactive', () => {
  let t: TestApp;
  let start: Date;
  let mail: ReturnType<typeof memoryMailer>;
  beforeAll(async () => {
    ({ t, start, mail } = await retentionApp());
  });
  afterAll(() => t.close());

  const profile = async (id: string) => (await query(t, 'SELECT * FROM affiliates WHERE id = $1', [id]))[0]!;

  it('purges what a deleted profile still holds, once', async () => {
    const deleted = await createTestAffiliate(t, {
      paymentMethod: 'paypal',
      paymentDetails: { paypalEmail: 'left@paypal.example' },
    });
    await insertCode(t, deleted.affiliateId, { description: 'My Instagram @ada' });
    await query(
      t,
      "INSERT INTO support_tickets (name, email, subject, message, language) VALUES ('Ada', upper($1), 'account', 'Hello', 'en')",
      [deleted.email],
    );
    // Deleted without its personal data going (as an older version, or a crash, could leave it).
    await query(t, 'UPDATE affiliates SET deleted_at = $2 WHERE id = $1', [deleted.affiliateId, start.toISOString()]);
    const properly = await createTestAffiliate(t);
    expect((await callFn(t, 'deleteAffiliateAccount', { password: properly.password }, properly.cookie)).status).toBe(
      200,
    );

    expect((await runRetention(t.context)).affiliatesPurged).toBe(2);
    expect(await profile(deleted.affiliateId)).toMatchObject({
      user_id: null,
      first_name: null,
      last_name: null,
      personal_data_purged_at: start,
    });
    expect((await profile(properly.affiliateId)).personal_data_purged_at).toEqual(start);
    expect(await query(t, 'SELECT 1 FROM auth_users WHERE email = $1', [deleted.email])).toEqual([]);
    expect(await query(t, 'SELECT 1 FROM payment_methods WHERE affiliate_id = $1', [deleted.affiliateId])).toEqual([]);
    expect(
      await query(t, 'SELECT description FROM referral_codes WHERE affiliate_id = $1', [deleted.affiliateId]),
    ).toEqual([{ description: null }]);
    expect(await query(t, 'SELECT 1 FROM support_tickets WHERE lower(email) = $1', [deleted.email])).toEqual([]);

    expect((await runRetention(t.context)).affiliatesPurged).toBe(0);
  });

  it('warns an account inactive for 11 months, then anonymises it 30 days later if nothing is owed', async () => {
    const inactive = await createTestAffiliate(t, { language: 'fr', firstName: 'Jeanne' });
    const owed = await createTestAffiliate(t);
    await insertAdjustment(t, owed.affiliateId, { cents: 500, createdAt: start });
    const returning = await createTestAffiliate(t, { language: 'en' });
    const earning = await createTestAffiliate(t);
    await outboxIdle(t.context);

    // 11 months and 1 day later: one of them still earns (a conversion is activity).
    t.clock.now = new Date(addYears(start, 1).getTime() - 29 * DAY_MS);
    await query(
      t,
      `INSERT INTO conversions (source_event_id, app_user_id, affiliate_id, occurred_at, commission_cents, rate_tier, status, payout_id)
       VALUES ('retention-event', 'retention-user', $1, $2, 200, 'standard', 'paid', NULL)`,
      [earning.affiliateId, new Date(t.clock.now.getTime() - DAY_MS).toISOString()],
    );
    const warnedAt = new Date(t.clock.now);
    const first = await runRetention(t.context);
    expect(first.affiliatesWarned).toBe(2);
    expect((await profile(inactive.affiliateId)).inactivity_warned_at).toEqual(warnedAt);
    expect((await profile(returning.affiliateId)).inactivity_warned_at).toEqual(warnedAt);
    expect((await profile(owed.affiliateId)).inactivity_warned_at).toBeNull();
    expect((await profile(earning.affiliateId)).inactivity_warned_at).toBeNull();
    // Warned a day late (29 days before the 12 months are over): still 30 days' notice.
    const deletionDay = new Date(warnedAt.getTime() + 30 * DAY_MS).toISOString().slice(0, 10);
    const [warning] = await outboxRows(t, { kind: 'inactivity-warning', to: inactive.email });
    const expectedDay = new Intl.DateTimeFormat('fr', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(`${deletionDay}T00:00:00Z`));
    expect(warning?.subject).toBe(
      `Votre compte affilié Skanova sera supprimé le ${expectedDay.replace(/^1 /, '1er ')}`,
    );
    expect(warning?.text_body).toContain('Bonjour Jeanne,');
    expect(warning?.html_body).toContain('/affiliate/login?lang=fr');
    expect((await outboxRows(t, { kind: 'inactivity-warning', to: returning.email }))[0]?.subject).toMatch(
      /^Your Skanova affiliate account will be deleted on /,
    );

    expect((await runRetention(t.context)).affiliatesWarned).toBe(0);
    expect(await outboxRows(t, { kind: 'inactivity-warning' })).toHaveLength(2);

    // One of them signs in: the warning is withdrawn.
    t.clock.advance(DAY_MS);
    expect((await signIn(t, returning.email, returning.password, '10.88.0.1')).status).toBe(200);
    expect((await profile(returning.affiliateId)).inactivity_warned_at).toBeNull();

    // 30 days after the warning (12 months after the last activity): anonymised and told so.
    t.clock.now = new Date(warnedAt.getTime() + 30 * DAY_MS);
    mail.sent.length = 0;
    const second = await runRetention(t.context);
    expect(second).toMatchObject({ affiliatesAnonymised: 1, affiliatesPurged: 1, affiliatesWarned: 0 });
    expect(await profile(inactive.affiliateId)).toMatchObject({
      user_id: null,
      first_name: null,
      deleted_at: t.clock.now,
      personal_data_purged_at: t.clock.now,
    });
    expect(await query(t, 'SELECT 1 FROM auth_users WHERE email = $1', [inactive.email])).toEqual([]);
    expect((await profile(returning.affiliateId)).deleted_at).toBeNull();
    expect((await profile(owed.affiliateId)).deleted_at).toBeNull();
    expect(
      await query(t, "SELECT actor, details FROM audit_log WHERE action = 'affiliate.deleted' AND subject = $1", [
        inactive.affiliateId,
      ]),
    ).toEqual([{ actor: 'system', details: { reason: 'inactive', lastActiveAt: expect.any(String) } }]);
    const [goodbye] = await outboxRows(t, { kind: 'account-deleted', to: inactive.email });
    expect(goodbye?.subject).toBe('Votre compte affilié Skanova a été supprimé');

    const third = await runRetention(t.context);
    expect(third).toMatchObject({ affiliatesAnonymised: 0, affiliatesPurged: 0 });
  });
});

describe('payment records and e-mails', () => {
  let t: TestApp;
  let start: Date;
  beforeAll(async () => {
    ({ t, start } = await retentionApp());
  });
  afterAll(() => t.close());

  it('trims RevenueCat payloads after 90 days and deletes events after 5 years', async () => {
    const event = (id: string, daysAgo: number) =>
      query(
        t,
        `INSERT INTO revenuecat_events (event_id, type, app_user_id, outcome, payload, received_at) VALUES ($1, 'INITIAL_PURCHASE', 'user', 'ignored', $2, $3)`,
        [
          id,
          JSON.stringify({
            event: { id, app_user_id: 'user', subscriber_attributes: { $email: { value: 'someone@example.com' } } },
          }),
          new Date(start.getTime() - daysAgo * DAY_MS).toISOString(),
        ],
      );
    await event('rc-recent', 10);
    await event('rc-old', 100);
    await event('rc-ancient', 6 * 365);

    const first = await runRetention(t.context);
    expect(first).toMatchObject({ revenuecatPayloadsTrimmed: 2, revenuecatEventsDeleted: 1 });
    expect(await query(t, 'SELECT event_id, type, outcome, payload FROM revenuecat_events ORDER BY event_id')).toEqual([
      { event_id: 'rc-old', type: 'INITIAL_PURCHASE', outcome: 'ignored', payload: {} },
      {
        event_id: 'rc-recent',
        type: 'INITIAL_PURCHASE',
        outcome: 'ignored',
        payload: expect.objectContaining({ event: expect.any(Object) }),
      },
    ]);
    expect(await runRetention(t.context)).toMatchObject({ revenuecatPayloadsTrimmed: 0, revenuecatEventsDeleted: 0 });
  });

  it('keeps payouts 5 years, then their amounts without their payment details; deletes old export files', async () => {
    const affiliate = await createTestAffiliate(t);
    const sixYearsAgo = addYears(start, -6);
    const old = await insertPayout(t, affiliate.affiliateId, {
      amountCents: 2500,
      status: 'paid',
      periodStart: '2019-01-01',
      paidAt: sixYearsAgo,
    });
    const recent = await insertPayout(t, affiliate.affiliateId, {
      amountCents: 3000,
      status: 'paid',
      periodStart: '2025-01-01',
      paidAt: new Date(start.getTime() - 30 * DAY_MS),
    });
    const [oldExport] = await query<{ id: string }>(
      t,
      `INSERT INTO payout_exports (kind, format, message_id, payday, payout_count, control_sum_cents, currency, file_name, content, created_at)
       VALUES ('paypal', 'paypal-payouts-csv', 'msg-old', '2019-02-15', 1, 2500, 'USD', 'old.csv', 'ada@paypal.example,25.00', $1) RETURNING id::text`,
      [sixYearsAgo.toISOString()],
    );
    const [recentExport] = await query<{ id: string }>(
      t,
      `INSERT INTO payout_exports (kind, format, message_id, payday, payout_count, control_sum_cents, currency, file_name, content)
       VALUES ('paypal', 'paypal-payouts-csv', 'msg-recent', '2025-02-15', 1, 3000, 'USD', 'recent.csv', 'ada@paypal.example,30.00') RETURNING id::text`,
    );
    await query(
      t,
      `UPDATE payouts SET export_id = $2, method_snapshot = '{"type":"paypal","paypalEmail":"ada@paypal.example"}' WHERE id = $1`,
      [old, oldExport!.id],
    );
    await query(
      t,
      `UPDATE payouts SET export_id = $2, method_snapshot = '{"type":"paypal","paypalEmail":"ada@paypal.example"}' WHERE id = $1`,
      [recent, recentExport!.id],
    );

    expect(await runRetention(t.context)).toMatchObject({ payoutsTrimmed: 1, payoutExportsDeleted: 1 });
    expect(
      await query(
        t,
        'SELECT id::text, amount_cents, status, method, method_snapshot, export_id::text FROM payouts WHERE affiliate_id = $1 ORDER BY amount_cents',
        [affiliate.affiliateId],
      ),
    ).toEqual([
      {
        id: old,
        amount_cents: 2500,
        status: 'paid',
        method: 'paypal',
        method_snapshot: { type: 'paypal' },
        export_id: null,
      },
      {
        id: recent,
        amount_cents: 3000,
        status: 'paid',
        method: 'paypal',
        method_snapshot: { type: 'paypal', paypalEmail: 'ada@paypal.example' },
        export_id: recentExport!.id,
      },
    ]);
    expect(await query(t, 'SELECT message_id FROM payout_exports')).toEqual([{ message_id: 'msg-recent' }]);
    expect(await runRetention(t.context)).toMatchObject({ payoutsTrimmed: 0, payoutExportsDeleted: 0 });
  });

  it(`deletes e-mails sent or given up more than ${FINISHED_EMAIL_DAYS} days ago, never one still to send`, async () => {
    await outboxIdle(t.context);
    await query(t, 'DELETE FROM email_outbox');
    const row = (key: string, sentDaysAgo: number | null, gaveUpDaysAgo: number | null = null) =>
      query(
        t,
        `INSERT INTO email_outbox (kind, dedupe_key, to_address, subject, text_body, sent_at, gave_up_at, created_at) VALUES ('test', $1, 'a@example.com', 's', 't', $2, $3, $4)`,
        [
          key,
          sentDaysAgo === null ? null : new Date(start.getTime() - sentDaysAgo * DAY_MS).toISOString(),
          gaveUpDaysAgo === null ? null : new Date(start.getTime() - gaveUpDaysAgo * DAY_MS).toISOString(),
          new Date(start.getTime() - 60 * DAY_MS).toISOString(),
        ],
      );
    await row('sent-long-ago', FINISHED_EMAIL_DAYS + 1);
    await row('sent-lately', FINISHED_EMAIL_DAYS - 1);
    await row('given-up-long-ago', null, FINISHED_EMAIL_DAYS + 10);
    await row('still-to-send', null);
    expect((await runRetention(t.context)).emailsDeleted).toBe(2);
    expect((await outboxRows(t)).map((email) => email.dedupe_key).sort()).toEqual(['sent-lately', 'still-to-send']);
    expect((await runRetention(t.context)).emailsDeleted).toBe(0);
  });
});
