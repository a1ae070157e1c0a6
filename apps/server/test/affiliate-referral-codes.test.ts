import {
  REFERRAL_CODE_ALPHABET,
  REFERRAL_CODE_LENGTH,
  REFERRAL_DESCRIPTION_MAX,
} from '@skanova/shared/affiliate/constants';
import { MAX_REFERRAL_CODES } from '@skanova/shared/affiliate/programme';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomReferralCode } from '../src/features/affiliate/referral-codes.ts';
import { type TestApp, createTestApp } from './helpers/app.ts';
import { callFn, createTestAffiliate } from './helpers/affiliates.ts';

// generateReferralCode (docs/product/calls-and-data.md#server-functions, docs/product/rules-and-constants.md#referral-codes): unambiguous 8-character codes, an optional description
// (empty = null), at most MAX_REFERRAL_CODES per affiliate even when the calls arrive together.

const CODE_PATTERN = new RegExp(`^[${REFERRAL_CODE_ALPHABET}]{${REFERRAL_CODE_LENGTH}}$`);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function codesOf(affiliateId: string) {
  const { rows } = await t.database.sql.query<{ code: string; description: string | null }>(
    'SELECT code, description FROM referral_codes WHERE affiliate_id = $1 ORDER BY id',
    [affiliateId],
  );
  return rows;
}

describe('generateReferralCode', () => {
  it('creates a code from the alphabet, with its description, shown in the stats', async () => {
    const affiliate = await createTestAffiliate(t);
    const response = await callFn(t, 'generateReferralCode', { description: '  Instagram bio  ' }, affiliate.cookie);
    expect(response.status).toBe(200);
    const { code, description } = response.body.result;
    expect(code).toMatch(CODE_PATTERN);
    expect(description).toBe('Instagram bio');
    expect(await codesOf(affiliate.affiliateId)).toEqual([{ code, description: 'Instagram bio' }]);
    const stats = await callFn(t, 'getAffiliateStats', null, affiliate.cookie);
    expect(stats.body.result.referralCodes.map((entry: { code: string }) => entry.code)).toEqual([code]);
  });

  it.each([
    ['no data', null],
    ['no description', {}],
    ['a null description', { description: null }],
    ['an empty description', { description: '' }],
    ['a blank description', { description: '   ' }],
  ])('stores a null description for %s', async (_label, data) => {
    const affiliate = await createTestAffiliate(t);
    const response = await callFn(t, 'generateReferralCode', data, affiliate.cookie);
    expect(response.status).toBe(200);
    expect(response.body.result.description).toBeNull();
    expect((await codesOf(affiliate.affiliateId))[0]?.description).toBeNull();
  });

  it('accepts a description of the maximum length', async () => {
    const affiliate = await createTestAffiliate(t);
    const description = 'é'.repeat(REFERRAL_DESCRIPTION_MAX);
    const response = await callFn(t, 'generateReferralCode', { description }, affiliate.cookie);
    expect(response.status).toBe(200);
    expect(response.body.result.description).toBe(description);
  });

  it.each([
    ['too long', { description: 'x'.repeat(REFERRAL_DESCRIPTION_MAX + 1) }],
    ['with a NUL character', { description: 'bio\u0000' }],
    ['a number', { description: 42 }],
    ['an object', { description: { text: 'x' } }],
    ['an array', { description: ['x'] }],
    ['data as a string', 'Instagram'],
    ['data as an array', [{ description: 'x' }]],
  ])('refuses a description %s with invalid-argument and creates nothing', async (_label, data) => {
    const affiliate = await createTestAffiliate(t);
    const response = await callFn(t, 'generateReferralCode', data, affiliate.cookie);
    expect(response.status).toBe(400);
    expect(response.body.error?.status).toBe('INVALID_ARGUMENT');
    expect(await codesOf(affiliate.affiliateId)).toEqual([]);
  });

  it(`stops at ${MAX_REFERRAL_CODES} codes with failed-precondition`, async () => {
    const affiliate = await createTestAffiliate(t);
    for (let i = 0; i < MAX_REFERRAL_CODES; i++) {
      expect((await callFn(t, 'generateReferralCode', { description: `link ${i}` }, affiliate.cookie)).status).toBe(
        200,
      );
    }
    const refused = await callFn(t, 'generateReferralCode', null, affiliate.cookie);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      status: 'FAILED_PRECONDITION',
      details: { code: 'max-codes-reached', max: MAX_REFERRAL_CODES },
    });
    const codes = await codesOf(affiliate.affiliateId);
    expect(codes).toHaveLength(MAX_REFERRAL_CODES);
    expect(new Set(codes.map((row) => row.code)).size).toBe(MAX_REFERRAL_CODES);
  });

  it(`leaves exactly ${MAX_REFERRAL_CODES} codes after 50 parallel calls`, async () => {
    const affiliate = await createTestAffiliate(t);
    const other = await createTestAffiliate(t);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        callFn(t, 'generateReferralCode', { description: `parallel ${i}` }, (i % 5 === 0 ? other : affiliate).cookie),
      ),
    );
    // 40 calls for one affiliate, 10 for the other: the other's are not held back by the first's lock.
    const mine = answers.filter((_, i) => i % 5 !== 0);
    expect(mine.filter((answer) => answer.status === 200)).toHaveLength(MAX_REFERRAL_CODES);
    const refused = mine.filter((answer) => answer.status !== 200);
    expect(refused).toHaveLength(40 - MAX_REFERRAL_CODES);
    for (const answer of refused) expect(answer.body.error?.details?.code).toBe('max-codes-reached');
    expect(await codesOf(affiliate.affiliateId)).toHaveLength(MAX_REFERRAL_CODES);
    expect(await codesOf(other.affiliateId)).toHaveLength(10);
  });

  it('leaves exactly 10 codes after 50 parallel calls of one affiliate (40 refused)', async () => {
    const affiliate = await createTestAffiliate(t);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => callFn(t, 'generateReferralCode', null, affiliate.cookie)),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(MAX_REFERRAL_CODES);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused).toHaveLength(50 - MAX_REFERRAL_CODES);
    for (const answer of refused) {
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({
        status: 'FAILED_PRECONDITION',
        details: { code: 'max-codes-reached' },
      });
    }
    expect(await codesOf(affiliate.affiliateId)).toHaveLength(MAX_REFERRAL_CODES);
  });

  it.each(['pending', 'refused'])('refuses a %s affiliate', async (status) => {
    const affiliate = await createTestAffiliate(t);
    await t.database.sql.query('UPDATE affiliates SET status = $2 WHERE id = $1', [affiliate.affiliateId, status]);
    const response = await callFn(t, 'generateReferralCode', null, affiliate.cookie);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      status: 'FAILED_PRECONDITION',
      details: { code: 'affiliate-not-active' },
    });
    expect(await codesOf(affiliate.affiliateId)).toEqual([]);
  });

  it('draws codes from the whole alphabet', () => {
    const seen = new Set<string>();
    const codes = Array.from({ length: 2000 }, randomReferralCode);
    for (const code of codes) {
      expect(code).toMatch(CODE_PATTERN);
      for (const char of code) seen.add(char);
    }
    expect(seen.size).toBe(REFERRAL_CODE_ALPHABET.length);
    expect(new Set(codes).size).toBe(codes.length);
  });
});
