import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, TEST_PUBLIC_URL, createTestApp } from './helpers/app.ts';
import { type TestAffiliate, callFn, createTestAffiliate, signIn } from './helpers/affiliates.ts';
import { type TestOperator, createTestOperator } from './helpers/operators.ts';
import { createVisit } from './helpers/visits.ts';

// The storable-text rule at every door to the database (a hostile client's report): a lone UTF-16
// surrogate or a NUL character, in a value or a key, is a client's mistake answered 400
// invalid-argument — never a 500 from a failed insert (PostgreSQL 22P02 / 22021), and never stored
// altered (the driver turns a lone surrogate into U+FFFD in text). Runs on PGlite and PostgreSQL.

const LONE_HIGH = 'utm\ud800';
const LONE_LOW = '\udc00x';

let t: TestApp;
let affiliate: TestAffiliate;
let operator: TestOperator;
let ipCounter = 0;
const nextIp = () => `10.66.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

beforeAll(async () => {
  t = await createTestApp();
  affiliate = await createTestAffiliate(t);
  operator = await createTestOperator(t);
});
afterAll(() => t.close());

async function count(table: string): Promise<number> {
  const { rows } = await t.database.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0]?.n ?? 0;
}

function expectInvalidArgument(response: Awaited<ReturnType<typeof callFn>>) {
  expect(response.status).toBe(400);
  expect(response.body.error?.status).toBe('INVALID_ARGUMENT');
}

describe('storePreInstallData (the reported case)', () => {
  const visit = (query: Record<string, string>) =>
    createVisit({ code: 'K7M2QX4P', sessionId: 'storable-session-abcdefgh', query });

  it.each([
    ['a lone high surrogate in a query key', { [LONE_HIGH]: 'x' }],
    ['a lone low surrogate in a query key', { [LONE_LOW]: 'x' }],
    ['a lone high surrogate in a query value', { utm_source: LONE_HIGH }],
    ['a lone low surrogate in a query value', { utm_source: LONE_LOW }],
    ['a NUL character in a query key', { 'utm\u0000': 'x' }],
  ])('answers %s with 400 invalid-argument and stores nothing', async (_label, query) => {
    const before = await count('clicks');
    expectInvalidArgument(await callFn(t, 'storePreInstallData', visit(query), undefined, nextIp()));
    expect(await count('clicks')).toBe(before);
  });

  it('answers a lone surrogate in a fingerprint field the same way (not stored as U+FFFD)', async () => {
    const data = visit({});
    data.fingerprint.userAgent = `Mozilla ${LONE_HIGH}`;
    expectInvalidArgument(await callFn(t, 'storePreInstallData', data, undefined, nextIp()));
  });

  it('still records a visit whose query holds characters outside the BMP (surrogate pairs)', async () => {
    const response = await callFn(t, 'storePreInstallData', visit({ 'utm_😀': 'smile 😀 𝔘' }), undefined, nextIp());
    expect(response.status).toBe(200);
  });
});

describe('the other functions', () => {
  it('refuses a lone surrogate in a referral code description', async () => {
    const before = await count('referral_codes');
    expectInvalidArgument(await callFn(t, 'generateReferralCode', { description: LONE_HIGH }, affiliate.cookie));
    expect(await count('referral_codes')).toBe(before);
  });

  it('refuses a lone surrogate in the contact form', async () => {
    const before = await count('support_tickets');
    const response = await callFn(
      t,
      'submitContactForm',
      { name: LONE_HIGH, email: 'ada@example.com', subject: 'other', message: 'A message long enough.' },
      undefined,
      nextIp(),
    );
    expectInvalidArgument(response);
    expect(await count('support_tickets')).toBe(before);
  });

  it('refuses a lone surrogate in bank details', async () => {
    const response = await callFn(
      t,
      'updateAffiliatePaymentMethod',
      {
        paymentMethod: 'bank_transfer',
        paymentDetails: {
          bankName: `BNP ${LONE_LOW}`,
          bankIban: 'FR76 3000 6000 0112 3456 7890 189',
          bic: 'BNPAFRPP',
          accountHolder: 'Ada Lovelace',
        },
      },
      affiliate.cookie,
    );
    expectInvalidArgument(response);
    const { rows } = await t.database.sql.query('SELECT 1 FROM payment_methods WHERE affiliate_id = $1', [
      affiliate.affiliateId,
    ]);
    expect(rows).toEqual([]);
  });

  it('refuses a lone surrogate in an operator’s reason (kept as jsonb in the audit log)', async () => {
    const target = await createTestAffiliate(t);
    const audited = () =>
      t.database.sql.query('SELECT action FROM audit_log WHERE subject = $1 ORDER BY id', [target.affiliateId]);
    const before = (await audited()).rows;
    const response = await callFn(
      t,
      'adminSetAffiliateStatus',
      { affiliateId: target.affiliateId, action: 'disable', reason: `spam ${LONE_HIGH}` },
      operator.cookie,
    );
    expectInvalidArgument(response);
    expect((await audited()).rows).toEqual(before);
    const { rows } = await t.database.sql.query<{ banned: boolean }>(
      'SELECT u.banned FROM auth_users u JOIN affiliates a ON a.user_id = u.id WHERE a.id = $1',
      [target.affiliateId],
    );
    expect(rows).toEqual([{ banned: false }]);
  });

  it('refuses a lone surrogate in a key of free-form payment details at signup', async () => {
    const before = await count('auth_users');
    const response = await callFn(
      t,
      'createAffiliate',
      {
        email: 'surrogate-key@example.com',
        password: 'correct horse battery',
        firstName: 'Ada',
        lastName: 'Lovelace',
        paymentMethod: 'paypal',
        paymentDetails: { paypalEmail: 'ada@paypal.example', [LONE_HIGH]: 'x' },
        termsAccepted: true,
      },
      undefined,
      nextIp(),
    );
    expectInvalidArgument(response);
    expect(await count('auth_users')).toBe(before);
  });
});

describe('the HTTP endpoints beside the functions', () => {
  async function post(url: string, body: unknown) {
    const response = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL },
      remoteAddress: nextIp(),
      payload: JSON.stringify(body),
    });
    return { status: response.statusCode, body: response.body };
  }

  it('web vitals: a NUL or a lone surrogate in the page answers 400, nothing stored', async () => {
    const before = await count('web_vitals');
    for (const page of ['/\u0000', `/${LONE_HIGH}`]) {
      const response = await post('/api/vitals', { page, name: 'LCP', value: 1200 });
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body).error.status).toBe('INVALID_ARGUMENT');
    }
    expect(await count('web_vitals')).toBe(before);
  });

  it.each([
    ['sign-in, NUL in the password', '/api/auth/sign-in/email', { email: 'a@example.com', password: 'pass\u0000word' }],
    [
      'sign-in, lone surrogate in the address',
      '/api/auth/sign-in/email',
      { email: `a${LONE_LOW}@example.com`, password: 'password1' },
    ],
    [
      'reset request, lone surrogate in the address',
      '/api/auth/request-password-reset',
      { email: `${LONE_HIGH}@example.com` },
    ],
    ['reset, NUL in the token', '/api/auth/reset-password', { token: '\u0000', newPassword: 'a new password 1' }],
    [
      'reset, lone surrogate in the token',
      '/api/auth/reset-password',
      { token: LONE_HIGH, newPassword: 'a new password 1' },
    ],
    [
      'reset, lone surrogate in the new password',
      '/api/auth/reset-password',
      { token: 'x'.repeat(24), newPassword: `new ${LONE_LOW} password` },
    ],
  ])('auth: %s answers 400', async (_label, url, body) => {
    const response = await post(url, body);
    expect(response.status).toBe(400);
  });

  it('auth: a correct sign-in still works beside them', async () => {
    expect((await signIn(t, affiliate.email, affiliate.password, nextIp())).status).toBe(200);
  });
});
