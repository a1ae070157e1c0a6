import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadAffiliateStats } from '../src/features/affiliate/affiliate-stats.ts';
import { type TestApp, createTestApp } from './helpers/app.ts';
import { callFn, createTestAffiliate, signIn } from './helpers/affiliates.ts';

// Who is calling (features/auth/caller.ts): a live session cookie is read with its user and profile
// in one statement; the auth library keeps deciding everything else — a session due for its daily
// renewal is renewed (and the affiliate marked active), an expired one deleted. Either way the
// answers are the library's.

const DAY_MS = 24 * 60 * 60 * 1000;
const SESSION_DAYS = 30;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** The session token behind a Cookie header (the part before the signature). */
function tokenOf(cookie: string): string {
  const value = decodeURIComponent(/sk\.session_token=([^;]+)/.exec(cookie)?.[1] ?? '');
  return value.slice(0, value.lastIndexOf('.'));
}

async function session(token: string) {
  const { rows } = await t.database.sql.query<{ expires_at: Date }>(
    'SELECT expires_at FROM auth_sessions WHERE token = $1',
    [token],
  );
  return rows[0] ?? null;
}

async function setExpiry(token: string, expiresAt: Date) {
  await t.database.sql.query('UPDATE auth_sessions SET expires_at = $2 WHERE token = $1', [token, expiresAt]);
}

describe('the session lookup', () => {
  it('answers a signed-in affiliate from the cookie, quoted or not', async () => {
    const affiliate = await createTestAffiliate(t);
    const plain = await callFn(t, 'getAffiliateSettings', null, affiliate.cookie);
    expect(plain.status).toBe(200);
    expect(plain.body.result.email).toBe(affiliate.email);
    const value = /sk\.session_token=([^;]+)/.exec(affiliate.cookie)?.[1];
    const quoted = await callFn(t, 'getAffiliateSettings', null, `other=1; sk.session_token="${value}"`);
    expect(quoted.status).toBe(200);
    expect(quoted.body.result.email).toBe(affiliate.email);
  });

  it('refuses a cookie whose signature does not match its token', async () => {
    const affiliate = await createTestAffiliate(t);
    const other = await createTestAffiliate(t);
    const value = decodeURIComponent(/sk\.session_token=([^;]+)/.exec(affiliate.cookie)?.[1] ?? '');
    const signature = value.slice(value.lastIndexOf('.') + 1);
    const forgeries = [
      // Another session's token under this one's signature.
      `${tokenOf(other.cookie)}.${signature}`,
      // One character of the signature changed.
      `${tokenOf(affiliate.cookie)}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`,
      // No signature at all.
      tokenOf(affiliate.cookie),
    ];
    for (const forged of forgeries) {
      const response = await callFn(t, 'getAffiliateSettings', null, `sk.session_token=${encodeURIComponent(forged)}`);
      expect(response.status, forged).toBe(401);
      expect(response.body.error?.status).toBe('UNAUTHENTICATED');
    }
  });

  it('lets the library renew a session due for renewal, and mark the affiliate active', async () => {
    const affiliate = await createTestAffiliate(t);
    const token = tokenOf(affiliate.cookie);
    // Created (or last renewed) 25 hours ago: more than a day, the renewal age.
    const due = new Date(Date.now() + SESSION_DAYS * DAY_MS - 25 * 60 * 60 * 1000);
    await setExpiry(token, due);
    await t.database.sql.query('UPDATE affiliates SET last_active_at = NULL WHERE id = $1', [affiliate.affiliateId]);

    const response = await callFn(t, 'getAffiliateStats', null, affiliate.cookie);
    expect(response.status).toBe(200);
    expect((await session(token))?.expires_at.getTime()).toBeGreaterThan(due.getTime() + 60 * 60 * 1000);
    const { rows } = await t.database.sql.query<{ last_active_at: Date | null }>(
      'SELECT last_active_at FROM affiliates WHERE id = $1',
      [affiliate.affiliateId],
    );
    expect(rows[0]?.last_active_at).not.toBeNull();
  });

  it('answers an expired session as signed out, and the library deletes it', async () => {
    const affiliate = await createTestAffiliate(t);
    const token = tokenOf(affiliate.cookie);
    await setExpiry(token, new Date(Date.now() - 60_000));
    const response = await callFn(t, 'getAffiliateStats', null, affiliate.cookie);
    expect(response.status).toBe(401);
    expect(await session(token)).toBeNull();
  });

  it('answers a disabled account as signed out, even with a live session', async () => {
    const affiliate = await createTestAffiliate(t);
    await t.database.sql.query(
      'UPDATE auth_users SET banned = true WHERE id = (SELECT user_id FROM affiliates WHERE id = $1)',
      [affiliate.affiliateId],
    );
    expect((await callFn(t, 'getAffiliateStats', null, affiliate.cookie)).status).toBe(401);
  });

  it('answers not-found to an account whose affiliate profile is deleted', async () => {
    const affiliate = await createTestAffiliate(t);
    await t.database.sql.query('UPDATE affiliates SET deleted_at = now() WHERE id = $1', [affiliate.affiliateId]);
    const response = await callFn(t, 'getAffiliateStats', null, affiliate.cookie);
    expect(response.status).toBe(404);
    expect(response.body.error?.details?.code).toBe('not-found');
  });

  it("reads the dashboard's statistics in the session's statement: one round trip, the same answer", async () => {
    const affiliate = await createTestAffiliate(t);
    expect((await callFn(t, 'generateReferralCode', { description: 'one statement' }, affiliate.cookie)).status).toBe(
      200,
    );
    const query = vi.spyOn(t.database.sql, 'query');
    const response = await callFn(t, 'getAffiliateStats', null, affiliate.cookie);
    const names = query.mock.calls.map(([text, , options]) => (options as { name?: string } | undefined)?.name ?? text);
    query.mockRestore();
    expect(response.status).toBe(200);
    expect(names).toEqual(['session-caller+affiliate-stats']);
    const alone = await loadAffiliateStats(t.context, affiliate.affiliateId);
    expect(response.body.result).toEqual(JSON.parse(JSON.stringify(alone)));
    expect(response.body.result.referralCodes.map((code: { description: string }) => code.description)).toEqual([
      'one statement',
    ]);
  });

  it('reads the session signed in through the sign-in endpoint as well', async () => {
    const affiliate = await createTestAffiliate(t);
    const login = await signIn(t, affiliate.email, affiliate.password, '10.31.0.1');
    expect(login.status).toBe(200);
    const response = await callFn(t, 'getAffiliateStats', null, login.cookie);
    expect(response.status).toBe(200);
    expect(response.body.result.status).toBe('active');
  });
});
