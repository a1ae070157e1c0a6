import { PASSWORD_MAX_LENGTH } from '@skanova/shared/affiliate/constants';
import { MINIMUM_PAYOUT_CENTS } from '@skanova/shared/affiliate/programme';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp, memoryMailer } from './helpers/app.ts';
import {
  type TestAffiliate,
  callFn,
  createTestAffiliate,
  insertAdjustment,
  insertCode,
  insertConversion,
  insertConversions,
  insertPayout,
  signIn,
  signupPayload,
} from './helpers/affiliates.ts';

// deleteAffiliateAccount (docs/product/money.md#disabled-and-deleted-accounts): confirmed by the password; refused while a payout is
// scheduled or the approved balance reaches the payout minimum; otherwise the personal data and the
// sign-in account go, and the payout and conversion records stay.

const NOW = new Date('2025-06-10T12:00:00.000Z');
const APPROVED = new Date('2025-05-20T00:00:00.000Z');

const mail = memoryMailer();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ mailer: mail.mailer });
});
afterAll(() => t.close());
beforeEach(() => {
  t.clock.now = new Date(NOW);
  mail.sent.length = 0;
});

const remove = (affiliate: TestAffiliate, password = affiliate.password) =>
  callFn(t, 'deleteAffiliateAccount', { password }, affiliate.cookie);

async function profile(affiliateId: string) {
  const { rows } = await t.database.sql.query<Record<string, unknown>>('SELECT * FROM affiliates WHERE id = $1', [
    affiliateId,
  ]);
  return rows[0];
}

async function stillSignedIn(affiliate: TestAffiliate) {
  return (await callFn(t, 'getAffiliateSettings', null, affiliate.cookie)).status === 200;
}

describe('deleteAffiliateAccount', () => {
  it('removes the personal data and the sign-in, keeps the money records, logs and e-mails', async () => {
    const affiliate = await createTestAffiliate(t, {
      language: 'fr',
      phone: '+33 6 12 34 56 78',
      companyName: 'Analytical Engines',
      website: 'https://ada.example',
      paymentMethod: 'paypal',
      paymentDetails: { paypalEmail: 'ada@paypal.example' },
    });
    const code = await insertCode(t, affiliate.affiliateId);
    const payout = await insertPayout(t, affiliate.affiliateId, {
      amountCents: 2200,
      status: 'paid',
      periodStart: '2025-03-01',
      paidAt: new Date('2025-04-15T00:00:00.000Z'),
    });
    await insertConversions(t, affiliate.affiliateId, 11, {
      codeId: code.id,
      status: 'paid',
      approvedAt: APPROVED,
      payoutId: payout,
    });
    // A balance below the minimum does not hold the deletion back (nor do pending commissions).
    await insertConversions(t, affiliate.affiliateId, 9, { status: 'approved', approvedAt: APPROVED });
    await insertConversions(t, affiliate.affiliateId, 30, { status: 'pending' });
    const userId = (await profile(affiliate.affiliateId))?.user_id as string;
    mail.sent.length = 0; // the welcome e-mail

    const response = await remove(affiliate);
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual({ deleted: true });
    // The answer expires the session cookie.
    expect(String(response.headers['set-cookie'])).toMatch(/sk\.session_token=;.*Max-Age=0/);

    expect(await profile(affiliate.affiliateId)).toMatchObject({
      user_id: null,
      first_name: null,
      last_name: null,
      phone: null,
      company_name: null,
      website: null,
      deleted_at: expect.any(Date),
    });
    const count = async (sql: string, params: unknown[]) =>
      (await t.database.sql.query<{ n: number }>(sql, params)).rows[0]?.n;
    expect(
      await count('SELECT count(*)::int AS n FROM payment_methods WHERE affiliate_id = $1', [affiliate.affiliateId]),
    ).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM auth_users WHERE id = $1', [userId])).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM auth_sessions WHERE user_id = $1', [userId])).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM auth_accounts WHERE user_id = $1', [userId])).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM payouts WHERE affiliate_id = $1', [affiliate.affiliateId])).toBe(
      1,
    );
    expect(
      await count('SELECT count(*)::int AS n FROM conversions WHERE affiliate_id = $1', [affiliate.affiliateId]),
    ).toBe(50);
    expect(
      await count(
        "SELECT count(*)::int AS n FROM audit_log WHERE action = 'affiliate.deleted' AND subject = $1 AND actor = $2",
        [affiliate.affiliateId, userId],
      ),
    ).toBe(1);

    // The session is gone and the password no longer signs in.
    expect(await stillSignedIn(affiliate)).toBe(false);
    expect((await callFn(t, 'getAffiliateStats', null, affiliate.cookie)).status).toBe(401);
    expect((await signIn(t, affiliate.email, affiliate.password, '10.20.0.1')).status).toBe(401);

    const message = mail.sent.find((sent) => sent.to === affiliate.email);
    expect(message?.subject).toBe('Votre compte affilié Skanova a été supprimé');
    expect(message?.text).toContain('5 ans');

    // The address is free again.
    const again = await callFn(t, 'createAffiliate', signupPayload({ email: affiliate.email }), undefined, '10.20.0.2');
    expect(again.status).toBe(200);
    expect(again.body.result.affiliateId).not.toBe(affiliate.affiliateId);
  });

  it('refuses a wrong password with permission-denied and deletes nothing', async () => {
    const affiliate = await createTestAffiliate(t);
    mail.sent.length = 0; // the welcome e-mail
    const response = await remove(affiliate, 'not my password');
    expect(response.status).toBe(403);
    expect(response.body.error).toMatchObject({ status: 'PERMISSION_DENIED', details: { code: 'wrong-password' } });
    expect((await profile(affiliate.affiliateId))?.deleted_at).toBeNull();
    expect(await stillSignedIn(affiliate)).toBe(true);
    expect(mail.sent).toEqual([]);
  });

  it('stops answering password guesses after the per-account limit', async () => {
    const affiliate = await createTestAffiliate(t);
    for (let i = 0; i < t.config.RATE_LIMIT_SIGNIN_PER_EMAIL_PER_HOUR; i++)
      expect((await remove(affiliate, `guess ${i}`)).status).toBe(403);
    const limited = await remove(affiliate);
    expect(limited.status).toBe(429);
    expect(limited.body.error?.details?.code).toBe('too-many-requests');
    expect(await stillSignedIn(affiliate)).toBe(true);
  });

  it('evaluates at most the per-account limit of password guesses sent together', async () => {
    const affiliate = await createTestAffiliate(t);
    const limit = t.config.RATE_LIMIT_SIGNIN_PER_EMAIL_PER_HOUR;
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => remove(affiliate, `guess ${i}`)));
    const codes = answers.map((answer) => answer.body.error?.details?.code);
    expect(codes.filter((code) => code === 'wrong-password').length).toBeLessThanOrEqual(limit);
    expect(codes.filter((code) => code !== 'wrong-password').every((code) => code === 'too-many-requests')).toBe(true);
    expect(await stillSignedIn(affiliate)).toBe(true);
  });

  it('refuses while a payout is scheduled, saying so', async () => {
    const affiliate = await createTestAffiliate(t);
    await insertPayout(t, affiliate.affiliateId, {
      amountCents: 2000,
      status: 'scheduled',
      periodStart: '2025-05-01',
      scheduledFor: '2025-06-15',
    });
    const response = await remove(affiliate);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ status: 'FAILED_PRECONDITION', details: { code: 'payout-scheduled' } });
    expect((await profile(affiliate.affiliateId))?.first_name).toBe('Ada');
    expect(await stillSignedIn(affiliate)).toBe(true);
  });

  it(`refuses while the approved balance is at least $${MINIMUM_PAYOUT_CENTS / 100}`, async () => {
    const affiliate = await createTestAffiliate(t);
    await insertConversions(t, affiliate.affiliateId, 9, { status: 'approved', approvedAt: APPROVED });
    await insertConversion(t, affiliate.affiliateId, { status: 'approved', approvedAt: APPROVED, cents: 150 });
    await insertAdjustment(t, affiliate.affiliateId, { cents: 49 });
    // 1800 + 150 + 49 = 1999: one cent short of the minimum.
    await insertConversion(t, affiliate.affiliateId, { status: 'reversed', approvedAt: APPROVED, cents: 400 });
    const sent = await insertPayout(t, affiliate.affiliateId, {
      amountCents: 400,
      status: 'sent',
      periodStart: '2025-04-01',
    });
    await insertConversions(t, affiliate.affiliateId, 2, { status: 'approved', approvedAt: APPROVED, payoutId: sent });

    await insertAdjustment(t, affiliate.affiliateId, { cents: 1 });
    const refused = await remove(affiliate);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      status: 'FAILED_PRECONDITION',
      details: { code: 'balance-due', balanceCents: MINIMUM_PAYOUT_CENTS, minimumCents: MINIMUM_PAYOUT_CENTS },
    });
    expect(await stillSignedIn(affiliate)).toBe(true);

    await insertAdjustment(t, affiliate.affiliateId, { cents: -1 });
    expect((await remove(affiliate)).status).toBe(200);
  });

  it.each([
    ['no password', {}],
    ['an empty password', { password: '' }],
    ['a password of the wrong type', { password: 12345678 }],
    ['a password too long', { password: 'p'.repeat(PASSWORD_MAX_LENGTH + 1) }],
    ['no data', null],
  ])('refuses %s with invalid-argument', async (_label, data) => {
    const affiliate = await createTestAffiliate(t);
    const response = await callFn(t, 'deleteAffiliateAccount', data, affiliate.cookie);
    expect(response.status).toBe(400);
    expect(response.body.error?.status).toBe('INVALID_ARGUMENT');
    expect(await stillSignedIn(affiliate)).toBe(true);
  });
});
