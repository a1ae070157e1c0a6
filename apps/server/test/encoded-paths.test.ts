import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from './helpers/app.ts';
import { createTestAffiliate, type TestAffiliate } from './helpers/affiliates.ts';

// The cross-origin and media-type checks of the server functions hold for the route a request
// reaches, however its path is spelled (docs/decisions/016-security-hardening.md): the router decodes
// percent-encoded characters, so `/api/%66n/…` reaches `/api/fn/…`. Runs on PGlite and PostgreSQL.

let t: TestApp;
let affiliate: TestAffiliate;
beforeAll(async () => {
  t = await createTestApp();
  affiliate = await createTestAffiliate(t);
});
afterAll(() => t.close());

/** Spellings of `/api/fn/generateReferralCode`: each letter of the prefix encoded in turn, and more. */
const SPELLINGS = [
  '/api/%66n/generateReferralCode',
  '/api/f%6E/generateReferralCode',
  '/api/%66%6e/generateReferralCode',
  '/%61pi/fn/generateReferralCode',
  '/a%70i/fn/generateReferralCode',
  '/ap%69/fn/generateReferralCode',
  '/api/fn/%67enerateReferralCode',
  '/api/fn/generateReferralCode/',
];

async function codesOf(affiliateId: string): Promise<number> {
  const { rows } = await t.database.sql.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM referral_codes WHERE affiliate_id = $1',
    [affiliateId],
  );
  return rows[0]?.n ?? 0;
}

describe('encoded paths of the server functions', () => {
  it('refuse a cross-origin call however the path is spelled, and create nothing', async () => {
    const before = await codesOf(affiliate.affiliateId);
    const answers: Record<string, { status: number; error?: string }> = {};
    for (const url of ['/api/fn/generateReferralCode', ...SPELLINGS]) {
      const response = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', origin: 'https://evil.example', cookie: affiliate.cookie },
        payload: JSON.stringify({ data: { description: 'planted' } }),
      });
      answers[url] = { status: response.statusCode, error: response.json().error?.status };
    }
    for (const url of Object.keys(answers)) expect(answers[url]).toEqual({ status: 403, error: 'PERMISSION_DENIED' });
    expect(await codesOf(affiliate.affiliateId)).toBe(before);
  });

  it('refuse a body that is not JSON however the path is spelled', async () => {
    const before = await codesOf(affiliate.affiliateId);
    for (const url of SPELLINGS) {
      const response = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'text/plain', origin: TEST_PUBLIC_URL, cookie: affiliate.cookie },
        payload: JSON.stringify({ data: { description: 'planted' } }),
      });
      expect({ url, status: response.statusCode, error: response.json().error?.status }).toEqual({
        url,
        status: 400,
        error: 'INVALID_ARGUMENT',
      });
    }
    expect(await codesOf(affiliate.affiliateId)).toBe(before);
  });

  it('answer an unknown API path in the protocol shape however it is spelled', async () => {
    for (const url of ['/%61pi/nothing/here', '/api/%66n/doesNotExist', '/%61%70%69', '/%61pi?x=1']) {
      const response = await t.app.inject({ method: 'POST', url, payload: { data: {} } });
      expect({ url, status: response.statusCode, error: response.json().error?.status }).toEqual({
        url,
        status: 404,
        error: 'NOT_FOUND',
      });
    }
  });
});
