import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PAGE_SIZE } from '@skanova/shared/admin/schemas';
import { type TestApp, createTestApp } from './helpers/app.ts';
import {
  type TestAffiliate,
  callFn,
  createTestAffiliate,
  insertAdjustment,
  insertVisits,
  insertCode,
  insertConversion,
  insertPayout,
  signIn,
} from './helpers/affiliates.ts';
import { type TestOperator, createTestOperator } from './helpers/operators.ts';

// The console's affiliates (docs/product/rules-and-constants.md#applications-and-disabled-accounts, docs/product/routes-and-screens.md#operator-console): the list with its search, filters and money; one
// affiliate's detail; approving and refusing applications (AFFILIATE_APPROVAL=manual), with the
// decision e-mailed; disabling and enabling accounts, with sign-in refused while disabled. Every
// decision leaves an audit entry naming the operator.

let t: TestApp;
let operator: TestOperator;
beforeAll(async () => {
  t = await createTestApp();
  operator = await createTestOperator(t);
});
afterAll(() => t.close());

function admin(name: string, data: unknown, as: { cookie: string } = operator) {
  return callFn(t, name, data, as.cookie);
}

async function list(data: Record<string, unknown>) {
  const response = await admin('adminListAffiliates', data);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.result as { items: Record<string, any>[]; total: number; page: number; pageSize: number };
}

async function audit(subject: string) {
  const { rows } = await t.database.sql.query<{ actor: string; action: string; details: Record<string, unknown> }>(
    'SELECT actor, action, details FROM audit_log WHERE subject = $1 AND action NOT IN ($2) ORDER BY id',
    [subject, 'affiliate.signup'],
  );
  return rows;
}

describe('adminListAffiliates', () => {
  let zoe: TestAffiliate;
  let zack: TestAffiliate;
  let zoeCode: string;

  beforeAll(async () => {
    zoe = await createTestAffiliate(t, {
      firstName: 'Zoé',
      lastName: 'Quartermaine',
      companyName: 'Quartz_Studio 100%',
    });
    zack = await createTestAffiliate(t, { firstName: 'Zack', lastName: 'Quartermaine' });
    zoeCode = (await callFn(t, 'generateReferralCode', { description: 'bio' }, zoe.cookie)).body.result.code;
    const second = await insertCode(t, zoe.affiliateId, { code: 'QZ2SECND' });
    await insertVisits(t, second.id, { counted: 4 });
    // Zoé's money: 4 qualified commissions ($2 paid, $2 in a sent payout, $2 approved, $4 pending),
    // one reversed, an adjustment in the sent payout and an unpaid deduction.
    const paid = await insertPayout(t, zoe.affiliateId, {
      amountCents: 300,
      status: 'paid',
      periodStart: '2025-01-01',
    });
    const sent = await insertPayout(t, zoe.affiliateId, {
      amountCents: 100,
      status: 'sent',
      periodStart: '2025-02-01',
    });
    await insertConversion(t, zoe.affiliateId, { codeId: second.id, cents: 200, status: 'paid', payoutId: paid });
    await insertConversion(t, zoe.affiliateId, { codeId: second.id, cents: 200, status: 'approved', payoutId: sent });
    await insertConversion(t, zoe.affiliateId, { codeId: second.id, cents: 200, status: 'approved' });
    await insertConversion(t, zoe.affiliateId, { codeId: second.id, cents: 400, status: 'pending' });
    await insertConversion(t, zoe.affiliateId, { codeId: second.id, cents: 200, status: 'reversed' });
    await insertAdjustment(t, zoe.affiliateId, { cents: 100, payoutId: sent });
    await insertAdjustment(t, zoe.affiliateId, { cents: -50 });
  });

  it('answers each affiliate with its codes and money, newest first', async () => {
    const page = await list({ query: 'quartermaine' });
    expect(page).toMatchObject({ total: 2, page: 1, pageSize: ADMIN_PAGE_SIZE });
    expect(page.items.map((item) => item.firstName)).toEqual(['Zack', 'Zoé']);
    expect(page.items[1]).toEqual({
      id: zoe.affiliateId,
      email: zoe.email,
      firstName: 'Zoé',
      lastName: 'Quartermaine',
      companyName: 'Quartz_Studio 100%',
      status: 'active',
      disabled: false,
      deleted: false,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      codes: [zoeCode, 'QZ2SECND'],
      qualifiedConversions: 4,
      earningsCents: 200 + 200 + 200 + 400 + 100 - 50,
      unpaidCents: 200 + 400 - 50,
    });
    expect(page.items[0]).toMatchObject({ codes: [], qualifiedConversions: 0, earningsCents: 0, unpaidCents: 0 });
  });

  it('adds up the money as the affiliate’s own dashboard does', async () => {
    const [row] = (await list({ query: zoe.email })).items;
    const stats = (await callFn(t, 'getAffiliateStats', null, zoe.cookie)).body.result;
    expect([row?.qualifiedConversions, row?.earningsCents, row?.unpaidCents]).toEqual([
      stats.totalConversions,
      stats.totalEarningsCents,
      stats.unpaidEarningsCents,
    ]);
  });

  it('finds by first and last name in either order, e-mail, company and code (any case), literally', async () => {
    const ids = async (query: string) => (await list({ query })).items.map((item) => item.id);
    expect(await ids('Zoé Quarter')).toEqual([zoe.affiliateId]);
    expect(await ids('quartermaine zo')).toEqual([zoe.affiliateId]);
    expect(await ids(zack.email.slice(0, 12).toUpperCase())).toEqual([zack.affiliateId]);
    expect(await ids('quartz_studio')).toEqual([zoe.affiliateId]);
    expect(await ids(zoeCode.toLowerCase())).toEqual([zoe.affiliateId]);
    expect(await ids('qz2s')).toEqual([zoe.affiliateId]);
    // LIKE's wildcards are plain characters in a search.
    expect(await ids('100%')).toEqual([zoe.affiliateId]);
    expect(await ids('Quartz%Studio')).toEqual([]);
    expect(await ids('Quartz Studio')).toEqual([]);
  });

  it('pages through the matches', async () => {
    for (let i = 0; i < 3; i++) await createTestAffiliate(t, { firstName: 'Pagina', lastName: `Number${i}` });
    const first = await list({ query: 'pagina', pageSize: 2 });
    const second = await list({ query: 'pagina', pageSize: 2, page: 2 });
    const third = await list({ query: 'pagina', pageSize: 2, page: 3 });
    expect([first.total, second.total, third.total]).toEqual([3, 3, 3]);
    expect(first.items.map((item) => item.lastName)).toEqual(['Number2', 'Number1']);
    expect(second.items.map((item) => item.lastName)).toEqual(['Number0']);
    expect(third.items).toEqual([]);
  });

  it('refuses unbounded or malformed requests', async () => {
    for (const data of [
      null,
      { pageSize: 101 },
      { page: 0 },
      { page: 1.5 },
      { query: 'x'.repeat(101) },
      { status: 'banned' },
      { extra: 1 },
    ]) {
      expect({ data, status: (await admin('adminListAffiliates', data)).status }).toEqual({ data, status: 400 });
    }
  });
});

describe('adminGetAffiliate', () => {
  it('answers the profile, the dashboard’s statistics and the payouts', async () => {
    const affiliate = await createTestAffiliate(t, {
      firstName: 'Grace',
      lastName: 'Hopper',
      phone: '+33 6 12 34 56 78',
      website: 'https://grace.example.com',
      language: 'fr',
      paymentMethod: 'paypal',
      paymentDetails: { paypalEmail: 'grace@paypal.example' },
    });
    const code = await insertCode(t, affiliate.affiliateId);
    await insertVisits(t, code.id, { counted: 8 });
    await insertConversion(t, affiliate.affiliateId, { codeId: code.id, status: 'approved' });
    const payout = await insertPayout(t, affiliate.affiliateId, {
      amountCents: 2400,
      status: 'scheduled',
      periodStart: '2025-03-01',
      scheduledFor: '2025-04-15',
    });

    const response = await admin('adminGetAffiliate', { affiliateId: affiliate.affiliateId });
    expect(response.status).toBe(200);
    const { affiliate: profile, stats, payouts } = response.body.result;
    const { rows } = await t.database.sql.query<{ last_active_at: Date | null }>(
      'SELECT last_active_at FROM affiliates WHERE id = $1',
      [affiliate.affiliateId],
    );
    expect(profile).toEqual({
      id: affiliate.affiliateId,
      email: affiliate.email,
      firstName: 'Grace',
      lastName: 'Hopper',
      phone: '+33 6 12 34 56 78',
      companyName: null,
      website: 'https://grace.example.com',
      language: 'fr',
      status: 'active',
      disabled: false,
      disabledReason: null,
      deleted: false,
      paymentMethod: 'paypal',
      groupId: 'default',
      groupName: 'Default',
      createdAt: expect.any(String),
      termsAcceptedAt: expect.any(String),
      lastActiveAt: rows[0]!.last_active_at?.toISOString() ?? null,
    });
    expect(stats).toEqual((await callFn(t, 'getAffiliateStats', null, affiliate.cookie)).body.result);
    expect(stats).toMatchObject({ totalClicks: 8, totalConversions: 1 });
    expect(payouts).toEqual([
      expect.objectContaining({ id: payout, amountCents: 2400, status: 'scheduled', scheduledFor: '2025-04-15' }),
    ]);
  });

  it('answers not-found for an unknown affiliate and invalid-argument for a malformed id', async () => {
    const unknown = await admin('adminGetAffiliate', { affiliateId: 'no-such-affiliate' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.status).toBe('NOT_FOUND');
    for (const affiliateId of ['', 'x'.repeat(65), "1' OR '1'='1", 42]) {
      expect((await admin('adminGetAffiliate', { affiliateId })).status).toBe(400);
    }
  });
});

describe('disabling and enabling an account', () => {
  it('refuses sign-in and ends the sessions while disabled; enabling lets the affiliate back in', async () => {
    const affiliate = await createTestAffiliate(t, { firstName: 'Dina' });
    const disabled = await admin('adminSetAffiliateStatus', {
      affiliateId: affiliate.affiliateId,
      action: 'disable',
      reason: 'Spam on social networks',
    });
    expect(disabled.body).toEqual({ result: { affiliateId: affiliate.affiliateId, status: 'active', disabled: true } });

    expect((await callFn(t, 'getAffiliateStats', null, affiliate.cookie)).status).toBe(401);
    const { rows: sessions } = await t.database.sql.query(
      'SELECT s.id FROM auth_sessions s JOIN affiliates a ON a.user_id = s.user_id WHERE a.id = $1',
      [affiliate.affiliateId],
    );
    expect(sessions).toEqual([]);
    const refused = await signIn(t, affiliate.email, affiliate.password, '10.61.0.1');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('BANNED_USER');

    const detail = (await admin('adminGetAffiliate', { affiliateId: affiliate.affiliateId })).body.result.affiliate;
    expect(detail).toMatchObject({ status: 'active', disabled: true, disabledReason: 'Spam on social networks' });
    const ids = async (status: string) => (await list({ query: affiliate.email, status })).items.map((item) => item.id);
    expect(await ids('disabled')).toEqual([affiliate.affiliateId]);
    expect(await ids('active')).toEqual([]);

    const again = await admin('adminSetAffiliateStatus', { affiliateId: affiliate.affiliateId, action: 'disable' });
    expect([again.status, again.body.error?.details?.code]).toEqual([400, 'no-change']);

    const enabled = await admin('adminSetAffiliateStatus', { affiliateId: affiliate.affiliateId, action: 'enable' });
    expect(enabled.body).toEqual({ result: { affiliateId: affiliate.affiliateId, status: 'active', disabled: false } });
    const login = await signIn(t, affiliate.email, affiliate.password, '10.61.0.1');
    expect(login.status).toBe(200);
    expect((await callFn(t, 'getAffiliateStats', null, login.cookie)).status).toBe(200);
    expect(await ids('active')).toEqual([affiliate.affiliateId]);
    expect(
      (await admin('adminGetAffiliate', { affiliateId: affiliate.affiliateId })).body.result.affiliate,
    ).toMatchObject({ disabled: false, disabledReason: null });

    expect(await audit(affiliate.affiliateId)).toEqual([
      {
        actor: operator.userId,
        action: 'affiliate.disabled',
        details: { reason: 'Spam on social networks', previousStatus: 'active', wasDisabled: false },
      },
      {
        actor: operator.userId,
        action: 'affiliate.enabled',
        details: { reason: null, previousStatus: 'active', wasDisabled: true },
      },
    ]);
    const notDisabled = await admin('adminSetAffiliateStatus', {
      affiliateId: affiliate.affiliateId,
      action: 'enable',
    });
    expect(notDisabled.body.error?.details?.code).toBe('no-change');
  });

  it('does not let an operator disable their own account', async () => {
    const affiliate = await createTestAffiliate(t);
    const self = await createTestOperator(t, affiliate.email);
    const response = await admin(
      'adminSetAffiliateStatus',
      { affiliateId: affiliate.affiliateId, action: 'disable' },
      self,
    );
    expect([response.status, response.body.error?.details?.code]).toEqual([400, 'cannot-disable-self']);
    expect((await admin('adminListAuditLog', {}, self)).status).toBe(200);
    // Another operator may.
    expect(
      (await admin('adminSetAffiliateStatus', { affiliateId: affiliate.affiliateId, action: 'disable' })).status,
    ).toBe(200);
    expect((await admin('adminListAuditLog', {}, self)).status).toBe(401);
  });

  it('changes nothing of a deleted account', async () => {
    const affiliate = await createTestAffiliate(t, { firstName: 'Gone' });
    expect((await callFn(t, 'deleteAffiliateAccount', { password: affiliate.password }, affiliate.cookie)).status).toBe(
      200,
    );
    for (const action of ['approve', 'refuse', 'disable', 'enable']) {
      const response = await admin('adminSetAffiliateStatus', { affiliateId: affiliate.affiliateId, action });
      expect([action, response.body.error?.details?.code]).toEqual([action, 'affiliate-deleted']);
    }
    expect((await list({ status: 'deleted' })).items.map((item) => item.id)).toContain(affiliate.affiliateId);
    expect((await list({})).items.map((item) => item.id)).not.toContain(affiliate.affiliateId);
    const detail = (await admin('adminGetAffiliate', { affiliateId: affiliate.affiliateId })).body.result.affiliate;
    expect(detail).toMatchObject({ deleted: true, email: null, firstName: null });
  });

  it('refuses a bad action or an overlong reason', async () => {
    const affiliate = await createTestAffiliate(t);
    for (const data of [
      { affiliateId: affiliate.affiliateId, action: 'ban' },
      { affiliateId: affiliate.affiliateId, action: 'disable', reason: 'x'.repeat(501) },
      { affiliateId: affiliate.affiliateId, action: 'disable', reason: '   ' },
      { affiliateId: affiliate.affiliateId },
    ]) {
      expect((await admin('adminSetAffiliateStatus', data)).status).toBe(400);
    }
    expect(await audit(affiliate.affiliateId)).toEqual([]);
  });
});

describe('applications with AFFILIATE_APPROVAL=manual', () => {
  let m: TestApp;
  let op: TestOperator;
  beforeAll(async () => {
    m = await createTestApp({ env: { AFFILIATE_APPROVAL: 'manual' } });
    op = await createTestOperator(m);
  });
  afterAll(() => m.close());

  const decide = (affiliateId: string, action: string, reason?: string) =>
    callFn(m, 'adminSetAffiliateStatus', { affiliateId, action, ...(reason ? { reason } : {}) }, op.cookie);

  async function decisionEmails(address: string) {
    const { rows } = await m.database.sql.query<{ subject: string; text_body: string }>(
      "SELECT subject, text_body FROM email_outbox WHERE kind = 'application-decision' AND to_address = $1 ORDER BY id",
      [address],
    );
    return rows;
  }

  it('approves a pending application: the affiliate is active and told so', async () => {
    const affiliate = await createTestAffiliate(m, { firstName: 'Penny', language: 'en' });
    expect((await callFn(m, 'getAffiliateStats', null, affiliate.cookie)).body.result.status).toBe('pending');
    const pending = await callFn(m, 'adminListAffiliates', { status: 'pending', query: affiliate.email }, op.cookie);
    expect(pending.body.result.items.map((item: { id: string }) => item.id)).toEqual([affiliate.affiliateId]);

    const approved = await decide(affiliate.affiliateId, 'approve');
    expect(approved.body).toEqual({
      result: { affiliateId: affiliate.affiliateId, status: 'active', disabled: false },
    });
    expect((await callFn(m, 'getAffiliateStats', null, affiliate.cookie)).body.result.status).toBe('active');
    const emails = await decisionEmails(affiliate.email);
    expect(emails.map((email) => email.subject)).toEqual(['Your Skanova affiliate application is approved']);
    expect(emails[0]!.text_body).toContain('Penny');
    const { rows } = await m.database.sql.query(
      'SELECT actor, action FROM audit_log WHERE subject = $1 AND actor = $2',
      [affiliate.affiliateId, op.userId],
    );
    expect(rows).toEqual([{ actor: op.userId, action: 'affiliate.approved' }]);

    expect((await decide(affiliate.affiliateId, 'approve')).body.error?.details?.code).toBe('no-change');
    // An active affiliate is disabled, not refused.
    expect((await decide(affiliate.affiliateId, 'refuse')).body.error?.details?.code).toBe('not-pending');
    expect(await decisionEmails(affiliate.email)).toHaveLength(1);
  });

  it('refuses a pending application with a reason, and may approve it later', async () => {
    const affiliate = await createTestAffiliate(m, { firstName: 'Rémi', language: 'fr' });
    const refused = await decide(affiliate.affiliateId, 'refuse', 'Site sans rapport avec la beauté');
    expect(refused.body.result).toEqual({ affiliateId: affiliate.affiliateId, status: 'refused', disabled: false });
    expect((await callFn(m, 'getAffiliateStats', null, affiliate.cookie)).body.result.status).toBe('refused');
    expect((await decide(affiliate.affiliateId, 'refuse')).body.error?.details?.code).toBe('no-change');
    const listed = await callFn(m, 'adminListAffiliates', { status: 'refused', query: affiliate.email }, op.cookie);
    expect(listed.body.result.total).toBe(1);

    expect((await decide(affiliate.affiliateId, 'approve')).body.result.status).toBe('active');
    const emails = await decisionEmails(affiliate.email);
    expect(emails.map((email) => email.subject)).toEqual([
      "Votre candidature d'affilié Skanova",
      "Votre candidature d'affilié Skanova est acceptée",
    ]);
    const { rows } = await m.database.sql.query<{ action: string; details: Record<string, unknown> }>(
      "SELECT action, details FROM audit_log WHERE subject = $1 AND action LIKE 'affiliate.%' AND action <> 'affiliate.signup' ORDER BY id",
      [affiliate.affiliateId],
    );
    expect(rows).toEqual([
      {
        action: 'affiliate.refused',
        details: { reason: 'Site sans rapport avec la beauté', previousStatus: 'pending', wasDisabled: false },
      },
      { action: 'affiliate.approved', details: { reason: null, previousStatus: 'refused', wasDisabled: false } },
    ]);
  });

  it('writes neither the decision nor its e-mail when the e-mail cannot be queued', async () => {
    const affiliate = await createTestAffiliate(m);
    await m.database.sql.query(
      'ALTER TABLE email_outbox ADD CONSTRAINT test_no_mail CHECK (kind <> $$application-decision$$) NOT VALID',
    );
    try {
      const response = await decide(affiliate.affiliateId, 'approve');
      expect(response.status).toBe(500);
    } finally {
      await m.database.sql.query('ALTER TABLE email_outbox DROP CONSTRAINT test_no_mail');
    }
    expect((await callFn(m, 'getAffiliateStats', null, affiliate.cookie)).body.result.status).toBe('pending');
    const { rows } = await m.database.sql.query(
      "SELECT id FROM audit_log WHERE subject = $1 AND action = 'affiliate.approved'",
      [affiliate.affiliateId],
    );
    expect(rows).toEqual([]);
  });
});
