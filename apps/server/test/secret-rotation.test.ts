import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { TEST_PUBLIC_URL, type TestApp, memoryMailer, serveTestApp, testConfig } from './helpers/app.ts';
import { callFn, createTestAffiliate } from './helpers/affiliates.ts';
import { TEST_DB, createTestDatabase } from './helpers/database.ts';
import { IPHONE_USER_AGENT, createVisit } from './helpers/visits.ts';

// What rotating each secret does (docs/deployment.md, "Secrets and their rotation"), shown on one
// database served before and after the change:
// - AUTH_SECRET: the signed session cookies opened before are no longer recognised (everyone signs in
//   again), but a session token sent unsigned as a bearer token still is: deleting sessions ends them;
// - DATA_ENCRYPTION_KEY: bank details sealed with the old key stay readable while the old key is in
//   DATA_ENCRYPTION_PREVIOUS_KEYS, new ones are sealed with the new key; without it they are lost;
// - IP_HASH_SECRET: a visitor counted in this hour is counted once more after the change.
//
// Embedded database only: nothing here depends on the database engine.

const KEY_1 = '1111111111111111111111111111111111111111111111111111111111111111';
const KEY_2 = '2222222222222222222222222222222222222222222222222222222222222222';
const BANK = {
  bankName: 'Demo Bank',
  bankIban: 'DE89 3704 0044 0532 0130 00',
  bic: 'COBADEFFXXX',
  accountHolder: 'Ada',
};

describe.skipIf(TEST_DB === 'postgres')('rotating the secrets', () => {
  let database: Database;
  const apps: TestApp[] = [];

  /** The product on the shared database, with these settings (as after a restart with a new value). */
  async function serve(env: Record<string, string>): Promise<TestApp> {
    const t = await serveTestApp(database, testConfig(env), { mailer: memoryMailer().mailer });
    apps.push(t);
    return t;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    for (const t of apps) await t.app.close();
    await database?.close();
  });

  const session = async (t: TestApp, cookie: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } })).json() as {
      user?: { id: string };
    } | null;

  it('AUTH_SECRET: signed sessions opened before the change are no longer recognised; deleting them ends the rest', async () => {
    const before = await serve({ AUTH_SECRET: 'a'.repeat(40) });
    const after = await serve({ AUTH_SECRET: 'b'.repeat(40) });
    const affiliate = await createTestAffiliate(before);
    expect((await session(before, affiliate.cookie))?.user).toBeDefined();
    expect((await session(after, affiliate.cookie))?.user).toBeUndefined();
    expect((await callFn(after, 'getAffiliateStats', null, affiliate.cookie)).status).toBe(401);

    // The session token itself, sent as a bearer token without its signature, is still accepted (the
    // bearer plugin signs unsigned tokens itself): the secret does not end sessions, deleting them does.
    const token = decodeURIComponent(affiliate.cookie.split('=')[1]!.split(';')[0]!).split('.')[0]!;
    const bearer = async () =>
      (
        await after.app.inject({
          method: 'GET',
          url: '/api/auth/get-session',
          headers: { authorization: `Bearer ${token}` },
        })
      ).json() as { user?: { id: string } } | null;
    expect((await bearer())?.user).toBeDefined();
    await database.sql.query('DELETE FROM auth_sessions');
    expect((await bearer())?.user).toBeUndefined();
  });

  it('DATA_ENCRYPTION_KEY: the old key kept as a previous key still reads; new details use the new key', async () => {
    const before = await serve({ DATA_ENCRYPTION_KEY: KEY_1 });
    const rotated = await serve({ DATA_ENCRYPTION_KEY: KEY_2, DATA_ENCRYPTION_PREVIOUS_KEYS: KEY_1 });
    const forgotten = await serve({ DATA_ENCRYPTION_KEY: KEY_2 });
    const affiliate = await createTestAffiliate(before, { paymentMethod: 'bank_transfer', paymentDetails: BANK });
    const sealed = async () =>
      (
        await database.sql.query<{ iban: string }>(
          'SELECT iban_encrypted AS iban FROM payment_methods WHERE affiliate_id = $1',
          [affiliate.affiliateId],
        )
      ).rows[0]!.iban;
    const keyIdBefore = (await sealed()).split(':')[1];

    const read = await callFn(rotated, 'getAffiliatePaymentMethod', null, affiliate.cookie);
    expect(read.status).toBe(200);
    expect(read.body.result.paymentMethod).toMatchObject({ type: 'bank_transfer', bic: BANK.bic });
    // Without the old key the stored details cannot be read: the answer is an internal error.
    expect((await callFn(forgotten, 'getAffiliatePaymentMethod', null, affiliate.cookie)).status).toBe(500);

    // Saved again after the rotation, they are sealed with the new key (and read without the old one).
    const update = await callFn(
      rotated,
      'updateAffiliatePaymentMethod',
      { paymentMethod: 'bank_transfer', paymentDetails: BANK },
      affiliate.cookie,
    );
    expect(update.status, JSON.stringify(update.body)).toBe(200);
    expect((await sealed()).split(':')[1]).not.toBe(keyIdBefore);
    expect((await callFn(forgotten, 'getAffiliatePaymentMethod', null, affiliate.cookie)).status).toBe(200);
  });

  it('IP_HASH_SECRET: a visitor already counted this hour is counted once more after the change', async () => {
    const before = await serve({ IP_HASH_SECRET: 'c'.repeat(40) });
    const after = await serve({ IP_HASH_SECRET: 'd'.repeat(40) });
    const affiliate = await createTestAffiliate(before);
    const code = (await callFn(before, 'generateReferralCode', {}, affiliate.cookie)).body.result.code as string;
    const visit = async (t: TestApp) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/fn/storePreInstallData',
        remoteAddress: '10.20.30.40',
        headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL, 'user-agent': IPHONE_USER_AGENT },
        payload: { data: createVisit({ code, sessionId: 'same-visitor-session-1' }) },
      });
      expect(response.statusCode).toBe(200);
      await t.app.close(); // commits the visit writer's batch
      apps.splice(apps.indexOf(t), 1);
    };
    const counted = async () =>
      (await database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM click_counts')).rows[0]!.n;
    await visit(before);
    const second = await serve({ IP_HASH_SECRET: 'c'.repeat(40) });
    await visit(second);
    expect(await counted()).toBe(1);
    await visit(after);
    expect(await counted()).toBe(2);
  });
});
