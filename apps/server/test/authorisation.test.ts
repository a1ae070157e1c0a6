import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callables } from '../src/functions/index.ts';
import { type TestOperator, createTestOperator } from './helpers/operators.ts';
import { type TestApp, TEST_PUBLIC_URL, createTestApp } from './helpers/app.ts';
import {
  type TestAffiliate,
  callFn,
  createTestAffiliate,
  insertVisits,
  insertCode,
  insertConversion,
  insertConversions,
  insertPayout,
  signIn,
} from './helpers/affiliates.ts';

// Every affiliate function checks the session first and reaches only the caller's rows (docs/product/rules-and-constants.md#security):
// without a session the answer is `unauthenticated` whatever the body; signed in as A, nothing of B
// comes back or changes, whichever of B's ids or codes the body names. Every operator function
// answers `unauthenticated` without a session, `permission-denied` to an affiliate, and works for
// an operator.

const AFFILIATE_FUNCTIONS = callables
  .filter((definition) => definition.access === 'affiliate')
  .map((definition) => definition.name);
const ADMIN_FUNCTIONS = callables
  .filter((definition) => definition.access === 'admin')
  .map((definition) => definition.name);

let t: TestApp;
let a: TestAffiliate;
let b: TestAffiliate;
/** What must never appear in an answer to A: B's identifiers and personal data. */
let bSecrets: string[];
let bUserId: string;
let bCode: string;
let bPayout: string;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTestAffiliate(t, {
    firstName: 'Alice',
    lastName: 'Anders',
    paymentMethod: 'paypal',
    paymentDetails: { paypalEmail: 'alice@paypal.example' },
  });
  b = await createTestAffiliate(t, {
    firstName: 'Brenda',
    lastName: 'Bravo',
    phone: '+33 7 00 00 00 42',
    paymentMethod: 'bank_transfer',
    paymentDetails: {
      bankName: 'Banque Brenda',
      bankIban: 'DE89 3704 0044 0532 0130 00',
      bic: 'COBADEFFXXX',
      accountHolder: 'Brenda Bravo',
    },
  });
  await callFn(t, 'generateReferralCode', { description: 'Alice link' }, a.cookie);
  bCode = (await callFn(t, 'generateReferralCode', { description: 'Brenda secret link' }, b.cookie)).body.result.code;
  const bCodeRow = await insertCode(t, b.affiliateId, { description: 'Brenda second link' });
  await insertVisits(t, bCodeRow.id, { counted: 77 });
  await insertConversions(t, b.affiliateId, 13, {
    codeId: bCodeRow.id,
    status: 'approved',
    approvedAt: new Date('2025-01-01T00:00:00Z'),
  });
  bPayout = await insertPayout(t, b.affiliateId, {
    amountCents: 98765,
    status: 'scheduled',
    periodStart: '2025-04-01',
    scheduledFor: '2025-05-15',
  });
  const { rows } = await t.database.sql.query<{ user_id: string }>('SELECT user_id FROM affiliates WHERE id = $1', [
    b.affiliateId,
  ]);
  bUserId = rows[0]!.user_id;
  bSecrets = [
    b.affiliateId,
    bUserId,
    b.email,
    bCode,
    bCodeRow.code,
    bPayout,
    'Brenda',
    'Bravo',
    'Banque',
    '••30 00',
    'COBADEFF',
    '98765',
    '+33 7',
  ];
});
afterAll(() => t.close());

/** Everything of B's in the database, as one text to compare before and after. */
async function snapshotOfB(): Promise<string> {
  const { rows } = await t.database.sql.query<{ snapshot: string }>(
    `SELECT json_build_object(
       'affiliate', (SELECT row_to_json(x) FROM affiliates x WHERE id = $1),
       'codes', (SELECT json_agg(x ORDER BY id) FROM referral_codes x WHERE affiliate_id = $1),
       'payment', (SELECT row_to_json(x) FROM payment_methods x WHERE affiliate_id = $1),
       'payouts', (SELECT json_agg(x ORDER BY id) FROM payouts x WHERE affiliate_id = $1),
       'conversions', (SELECT json_agg(x ORDER BY id) FROM conversions x WHERE affiliate_id = $1),
       'user', (SELECT row_to_json(x) FROM auth_users x WHERE id = $2),
       'accounts', (SELECT json_agg(x ORDER BY id) FROM auth_accounts x WHERE user_id = $2),
       'sessions', (SELECT json_agg(x ORDER BY id) FROM auth_sessions x WHERE user_id = $2)
     )::text AS snapshot`,
    [b.affiliateId, bUserId],
  );
  return rows[0]!.snapshot;
}

function post(name: string, payload: string, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/api/fn/${name}`,
    headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL, ...headers },
    payload,
  });
}

/** Bodies an anonymous caller may send: none reaches validation. */
const bodies = [
  '{"data":null}',
  '{"data":{}}',
  '{"data":{"paymentMethod":"paypal","paymentDetails":{"paypalEmail":"x@example.com"}}}',
  '{"data":{"password":"correct horse battery"}}',
  '{"data":"junk"}',
  '{"data":[1,2,3]}',
  '{"data":{"description":42,"conversions":"yes"}}',
  '{}',
  '[]',
  '"data"',
  '42',
];
const credentials: [string, Record<string, string>][] = [
  ['no credentials', {}],
  ['a forged session cookie', { cookie: 'sk.session_token=forged-token.forged-signature' }],
  ['an unknown bearer token', { authorization: 'Bearer not-a-session-token' }],
  ['a malformed authorization header', { authorization: 'Basic YWxhZGRpbjpvcGVuc2VzYW1l' }],
];

describe('without a session', () => {
  it('lists the affiliate functions this suite covers', () => {
    expect(AFFILIATE_FUNCTIONS).toEqual(
      expect.arrayContaining([
        'getAffiliateStats',
        'getActiveVisitors',
        'getAffiliateTimeline',
        'getAffiliatePaymentMethod',
        'updateAffiliatePaymentMethod',
        'generateReferralCode',
        'getAffiliatePayouts',
        'getAffiliateUnpaidEarnings',
        'getAffiliateSettings',
        'updateNotificationPreferences',
        'deleteAffiliateAccount',
        'getAffiliateRule',
        'getAffiliateCommissions',
      ]),
    );
  });

  it.each(AFFILIATE_FUNCTIONS)('%s answers 401 unauthenticated, before looking at the body', async (name) => {
    for (const [label, headers] of credentials) {
      for (const body of bodies) {
        const response = await post(name, body, headers);
        expect({ label, body, status: response.statusCode }).toEqual({ label, body, status: 401 });
        expect(response.json().error.status).toBe('UNAUTHENTICATED');
      }
    }
  });
});

describe('signed in as A', () => {
  /** Bodies that name B's rows in every way a client could try. */
  function attacks(name: string): unknown[] {
    const pointers = {
      affiliateId: b.affiliateId,
      userId: bUserId,
      code: bCode,
      id: bPayout,
      email: b.email,
      uid: bUserId,
    };
    const base: Record<string, unknown> = {
      updateAffiliatePaymentMethod: {
        paymentMethod: 'paypal',
        paymentDetails: { paypalEmail: 'alice-new@paypal.example', affiliateId: b.affiliateId },
      },
      generateReferralCode: { description: 'Alice again' },
      updateNotificationPreferences: { conversions: false, payments: false, news: false },
      deleteAffiliateAccount: { password: b.password },
    };
    const valid = base[name] ?? null;
    return [
      valid,
      { ...(valid as object | null), ...pointers },
      pointers,
      { affiliate: pointers },
      { where: { affiliate_id: b.affiliateId } },
    ];
  }

  it.each(AFFILIATE_FUNCTIONS.filter((name) => name !== 'deleteAffiliateAccount'))(
    '%s never answers or changes anything of B',
    async (name) => {
      const before = await snapshotOfB();
      for (const data of attacks(name)) {
        const response = await callFn(t, name, data, a.cookie);
        expect(response.status).toBeLessThan(500);
        const text = JSON.stringify(response.body);
        for (const secret of bSecrets)
          expect({ data, leaked: text.includes(secret) ? secret : null }).toEqual({ data, leaked: null });
      }
      expect(await snapshotOfB()).toBe(before);
    },
  );

  it('changes A’s own rows when asked to change B’s', async () => {
    const method = await callFn(
      t,
      'updateAffiliatePaymentMethod',
      {
        paymentMethod: 'paypal',
        paymentDetails: { paypalEmail: 'alice-2@paypal.example' },
        affiliateId: b.affiliateId,
      },
      a.cookie,
    );
    expect(method.body.result.paymentMethod.paypalEmail).toBe('alice-2@paypal.example');
    const mine = await callFn(t, 'getAffiliatePaymentMethod', null, a.cookie);
    expect(mine.body.result.paymentMethod.paypalEmail).toBe('alice-2@paypal.example');
    const theirs = await callFn(t, 'getAffiliatePaymentMethod', null, b.cookie);
    expect(theirs.body.result.paymentMethod).toMatchObject({ type: 'bank_transfer', bankName: 'Banque Brenda' });

    const stats = await callFn(t, 'getAffiliateStats', { affiliateId: b.affiliateId }, a.cookie);
    expect(stats.status).toBe(400);
    const own = await callFn(t, 'getAffiliateStats', null, a.cookie);
    expect(
      own.body.result.referralCodes.every(
        (code: { description: string | null }) => !code.description?.includes('Brenda'),
      ),
    ).toBe(true);
    expect(own.body.result.totalClicks).toBe(0);
  });

  it('deleteAffiliateAccount checks A’s password and deletes only A', async () => {
    const before = await snapshotOfB();
    const wrong = await callFn(
      t,
      'deleteAffiliateAccount',
      { password: b.password === a.password ? 'not the password' : b.password, affiliateId: b.affiliateId },
      a.cookie,
    );
    expect(wrong.status).toBe(403);
    expect(await snapshotOfB()).toBe(before);

    const victim = await createTestAffiliate(t, { password: 'victim password 1' });
    const attacker = await createTestAffiliate(t, { password: 'attacker password 1' });
    const victimBefore = await t.database.sql.query('SELECT * FROM affiliates WHERE id = $1', [victim.affiliateId]);
    const refused = await callFn(
      t,
      'deleteAffiliateAccount',
      { password: victim.password, affiliateId: victim.affiliateId },
      attacker.cookie,
    );
    expect(refused.status).toBe(403);
    const deleted = await callFn(
      t,
      'deleteAffiliateAccount',
      { password: attacker.password, affiliateId: victim.affiliateId, userId: victim.affiliateId },
      attacker.cookie,
    );
    expect(deleted.status).toBe(200);
    expect((await t.database.sql.query('SELECT * FROM affiliates WHERE id = $1', [victim.affiliateId])).rows).toEqual(
      victimBefore.rows,
    );
    expect((await callFn(t, 'getAffiliateSettings', null, victim.cookie)).status).toBe(200);
    expect((await callFn(t, 'getAffiliateSettings', null, attacker.cookie)).status).toBe(401);
  });
});

describe('sessions', () => {
  it('accepts the session token as a bearer token, like the cookie', async () => {
    const affiliate = await createTestAffiliate(t);
    const login = await signIn(t, affiliate.email, affiliate.password, '10.30.0.1');
    expect(login.status).toBe(200);
    const token = login.body.token as string;
    expect(token).toBeTruthy();
    const byBearer = await post('getAffiliateSettings', '{"data":null}', { authorization: `Bearer ${token}` });
    expect(byBearer.statusCode).toBe(200);
    expect(byBearer.json().result.email).toBe(affiliate.email);
    const byCookie = await callFn(t, 'getAffiliateSettings', null, login.cookie);
    expect(byCookie.body.result).toEqual(byBearer.json().result);
    // A bearer token of another account reaches that account only.
    const code = await post('generateReferralCode', '{"data":{"description":"by bearer"}}', {
      authorization: `Bearer ${token}`,
    });
    expect(code.statusCode).toBe(200);
    const stats = await callFn(t, 'getAffiliateStats', null, affiliate.cookie);
    expect(stats.body.result.referralCodes.map((entry: { code: string }) => entry.code)).toEqual([
      code.json().result.code,
    ]);
  });

  it('refuses the session of a banned (disabled) account with 401', async () => {
    const affiliate = await createTestAffiliate(t);
    expect((await callFn(t, 'getAffiliateStats', null, affiliate.cookie)).status).toBe(200);
    await t.database.sql.query('UPDATE auth_users SET banned = true WHERE email = $1', [affiliate.email]);
    for (const name of AFFILIATE_FUNCTIONS) {
      const response = await callFn(t, name, null, affiliate.cookie);
      expect({ name, status: response.status }).toEqual({ name, status: 401 });
    }
    await t.database.sql.query('UPDATE auth_users SET banned = false WHERE email = $1', [affiliate.email]);
    expect((await callFn(t, 'getAffiliateStats', null, affiliate.cookie)).status).toBe(200);
  });

  it('refuses a signed-out session', async () => {
    const affiliate = await createTestAffiliate(t);
    const signOut = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL, cookie: affiliate.cookie },
      payload: '{}',
    });
    expect(signOut.statusCode).toBe(200);
    expect((await callFn(t, 'getAffiliateStats', null, affiliate.cookie)).status).toBe(401);
  });
});

describe('operator functions', () => {
  let operator: TestOperator;
  /** An affiliate the operator's calls act on (B stays as it is for the suites above). */
  let c: TestAffiliate;
  let cConversion: string;
  let cCode: string;
  let campaignRateId: string;
  let ticketId: string;

  beforeAll(async () => {
    operator = await createTestOperator(t);
    c = await createTestAffiliate(t, { firstName: 'Carla' });
    cConversion = String(await insertConversion(t, c.affiliateId, { status: 'pending' }));
    const cCodeRow = await insertCode(t, c.affiliateId, { description: 'Carla campaign link' });
    cCode = cCodeRow.code;
    // Groups the partner-group functions act on: one to rename, one to archive, one to publish a rule
    // in, one with a rule to move C into; and a campaign rate no commission used, to delete.
    await t.database.sql.query(
      `INSERT INTO partner_groups (id, name) VALUES ('auth-rename', 'Rename me'), ('auth-archive', 'Archive me'),
         ('auth-rules', 'Rules'), ('auth-move', 'Move here')`,
    );
    await t.database.sql.query(
      `INSERT INTO reward_rules (group_id, version, effective_from, kind, percent_basis_points, hold_days, minimum_payout_cents)
       VALUES ('auth-move', 1, '2020-01-01T00:00:00Z', 'percentage', 3000, 30, 2000)`,
    );
    const { rows: rates } = await t.database.sql.query<{ id: string }>(
      `INSERT INTO campaign_rates (referral_code_id, starts_at, ends_at, kind, amount_cents)
       VALUES ($1, '2030-01-01T00:00:00Z', '2030-02-01T00:00:00Z', 'flat', 500) RETURNING id::text AS id`,
      [cCodeRow.id],
    );
    campaignRateId = rates[0]!.id;
    const ticket = await callFn(
      t,
      'submitContactForm',
      { name: 'Vera', email: 'vera@example.com', subject: 'other', message: 'A question for support.' },
      undefined,
      '10.31.0.1',
    );
    ticketId = ticket.body.result.ticketId;
  });

  /** A valid body of each operator function, and whether its answer is this suite's to pin down. */
  function validCall(name: string): { data: unknown; exact: boolean } {
    const calls: Record<string, unknown> = {
      adminGetOverview: {},
      adminListAffiliates: { query: 'carla', status: 'active' },
      adminGetAffiliate: { affiliateId: c.affiliateId },
      adminSetAffiliateStatus: { affiliateId: c.affiliateId, action: 'disable', reason: 'authorisation test' },
      adminListConversions: { affiliateId: c.affiliateId },
      adminReverseConversion: { conversionId: cConversion, reason: 'authorisation test' },
      adminListTickets: { status: 'open' },
      adminMarkTicketHandled: { ticketId },
      adminGetWebVitals: { days: 7 },
      adminListAuditLog: { action: 'affiliate.' },
      adminListReviewCases: { status: 'open' },
      adminGetReviewPolicies: {},
      adminSetReviewPolicy: { groupId: 'default', signal: 'disposable-email', action: 'flag' },
      adminListGroups: null,
      adminCreateGroup: { id: 'authorisation-test', name: 'Authorisation test' },
      adminRenameGroup: { groupId: 'auth-rename', name: 'Renamed' },
      adminArchiveGroup: { groupId: 'auth-archive' },
      adminListRuleVersions: { groupId: 'default' },
      adminPublishRuleVersion: {
        groupId: 'auth-rules',
        kind: 'flat',
        tiers: [{ from: 0, cents: 300 }],
        holdDays: 30,
        minimumPayoutCents: 2000,
      },
      adminMoveAffiliateToGroup: { affiliateId: c.affiliateId, groupId: 'auth-move' },
      adminListCampaignRates: { affiliateId: c.affiliateId },
      adminCreateCampaignRate: {
        code: cCode,
        from: t.clock.now.toISOString().slice(0, 10),
        until: t.clock.now.toISOString().slice(0, 10),
        kind: 'flat',
        amountCents: 500,
      },
      adminDeleteCampaignRate: { campaignRateId },
    };
    // The payout functions' own suites pin their answers down; here they must only let the operator in.
    const payoutCalls: Record<string, unknown> = {
      adminListPayouts: {},
      adminRunPayouts: { payday: '2025-01-15' },
      adminExportPayouts: { kind: 'paypal', payday: '2025-01-15' },
      adminMarkPayouts: { payoutIds: [bPayout], status: 'sent', reference: 'authorisation test' },
      adminReconcileLedger: null,
      adminExportLedger: { from: '2025-01', to: '2025-03' },
      // The review's own suite (review.test.ts) decides real cases; here, a case that does not exist.
      adminGetReviewCase: { caseId: '999999' },
      adminDecideReviewCase: { caseId: '999999', decision: 'approve', reason: 'authorisation test' },
    };
    // The webhook functions' own suites (webhook-endpoints.test.ts) pin their answers down too.
    const webhookCalls: Record<string, unknown> = {
      adminListWebhookEndpoints: {},
      adminCreateWebhookEndpoint: { url: 'http://192.0.2.1/hook', eventTypes: ['payout.paid'] },
      adminUpdateWebhookEndpoint: { endpointId: '00000000-0000-4000-8000-000000000000', enabled: false },
      adminDeleteWebhookEndpoint: { endpointId: '00000000-0000-4000-8000-000000000000' },
      adminRotateWebhookSecret: { endpointId: '00000000-0000-4000-8000-000000000000' },
      adminListWebhookDeliveries: {},
      adminReplayWebhookDelivery: { deliveryId: '1' },
    };
    if (name in calls) return { data: calls[name], exact: true };
    if (name in payoutCalls) return { data: payoutCalls[name], exact: false };
    if (name in webhookCalls) return { data: webhookCalls[name], exact: false };
    throw new Error(`no valid call of ${name} in this suite: add one`);
  }

  it('lists the operator functions this suite covers', () => {
    expect(ADMIN_FUNCTIONS).toEqual(
      expect.arrayContaining([
        'adminListAffiliates',
        'adminGetAffiliate',
        'adminSetAffiliateStatus',
        'adminListConversions',
        'adminReverseConversion',
        'adminListTickets',
        'adminMarkTicketHandled',
        'adminGetWebVitals',
        'adminListAuditLog',
        'adminListGroups',
        'adminCreateGroup',
        'adminRenameGroup',
        'adminArchiveGroup',
        'adminListRuleVersions',
        'adminPublishRuleVersion',
        'adminMoveAffiliateToGroup',
        'adminListCampaignRates',
        'adminCreateCampaignRate',
        'adminDeleteCampaignRate',
      ]),
    );
  });

  it.each(ADMIN_FUNCTIONS)(
    '%s answers 401 unauthenticated without a session, before looking at the body',
    async (name) => {
      const valid = JSON.stringify({ data: validCall(name).data });
      for (const [label, headers] of credentials) {
        for (const body of [...bodies, valid]) {
          const response = await post(name, body, headers);
          expect({ label, body, status: response.statusCode }).toEqual({ label, body, status: 401 });
          expect(response.json().error.status).toBe('UNAUTHENTICATED');
        }
      }
    },
  );

  it.each(ADMIN_FUNCTIONS)(
    '%s answers 403 permission-denied to a signed-in affiliate and changes nothing',
    async (name) => {
      const before = await snapshotOfB();
      const { rows: audit } = await t.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log');
      for (const data of [validCall(name).data, { affiliateId: a.affiliateId, action: 'approve' }, null, 'junk']) {
        const response = await callFn(t, name, data, a.cookie);
        expect({ data, status: response.status }).toEqual({ data, status: 403 });
        expect(response.body.error?.status).toBe('PERMISSION_DENIED');
      }
      expect(await snapshotOfB()).toBe(before);
      const { rows: after } = await t.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log');
      expect(after[0]!.n).toBe(audit[0]!.n);
    },
  );

  it.each(ADMIN_FUNCTIONS)('%s works for an operator, and validates the body after the role', async (name) => {
    const { data, exact } = validCall(name);
    const response = await callFn(t, name, data, operator.cookie);
    if (exact)
      expect({ status: response.status, error: response.body.error }).toEqual({ status: 200, error: undefined });
    else expect([401, 403]).not.toContain(response.status);
    expect(response.status).toBeLessThan(500);
    const malformed = await callFn(t, name, 'junk', operator.cookie);
    expect([malformed.status, malformed.body.error?.status]).toEqual([400, 'INVALID_ARGUMENT']);
  });

  it('refuses an operator whose account was disabled, with 401', async () => {
    const other = await createTestOperator(t);
    expect((await callFn(t, 'adminListAuditLog', {}, other.cookie)).status).toBe(200);
    await t.database.sql.query('UPDATE auth_users SET banned = true WHERE id = $1', [other.userId]);
    expect((await callFn(t, 'adminListAuditLog', {}, other.cookie)).status).toBe(401);
  });

  it('takes the role from the account on every call: a demoted operator is refused at once', async () => {
    const other = await createTestOperator(t);
    await t.database.sql.query("UPDATE auth_users SET role = 'affiliate' WHERE id = $1", [other.userId]);
    const response = await callFn(t, 'adminListAuditLog', {}, other.cookie);
    expect([response.status, response.body.error?.status]).toEqual([403, 'PERMISSION_DENIED']);
  });
});
