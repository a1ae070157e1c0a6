import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from './helpers/app.ts';
import { callFn, createTestAffiliate, signupPayload } from './helpers/affiliates.ts';

// Signup's audit entry is written in signup's own transaction, with the profile it records: a
// profile never exists without its entry, and a refused signup leaves none.

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function signupEntries(subject: string) {
  const { rows } = await t.database.sql.query<{ actor: string; details: unknown; created_at: Date | string }>(
    "SELECT actor, details, created_at FROM audit_log WHERE action = 'affiliate.signup' AND subject = $1",
    [subject],
  );
  return rows;
}

describe('signup audit entry', () => {
  it('records the new profile once, by its account, at the application clock’s time', async () => {
    const affiliate = await createTestAffiliate(t, {
      paymentMethod: 'paypal',
      paymentDetails: { paypalEmail: 'ada@paypal.example' },
    });
    const { rows: users } = await t.database.sql.query<{ user_id: string }>(
      'SELECT user_id FROM affiliates WHERE id = $1',
      [affiliate.affiliateId],
    );

    const entries = await signupEntries(affiliate.affiliateId);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.actor).toBe(users[0]!.user_id);
    expect(entries[0]!.details).toEqual({ status: 'active', paymentMethod: 'paypal' });
    expect(new Date(entries[0]!.created_at).getTime()).toBe(t.clock.now.getTime());
  });

  it('leaves no entry when the signup is refused', async () => {
    const first = signupPayload();
    expect((await callFn(t, 'createAffiliate', first, undefined, '10.77.0.1')).status).toBe(200);
    const { rows: before } = await t.database.sql.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_log WHERE action = 'affiliate.signup'",
    );

    const again = await callFn(
      t,
      'createAffiliate',
      { ...signupPayload(), email: first.email },
      undefined,
      '10.77.0.2',
    );
    expect(again.status).toBe(409);

    const { rows: after } = await t.database.sql.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_log WHERE action = 'affiliate.signup'",
    );
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('commits nothing when its entry cannot be written: the account, profile and entry are one transaction', async () => {
    await t.database.sql.exec(`
      CREATE FUNCTION refuse_signup_audit() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'audit entry refused'; END $$;
      CREATE TRIGGER refuse_signup_audit BEFORE INSERT ON audit_log
        FOR EACH ROW WHEN (NEW.action = 'affiliate.signup') EXECUTE FUNCTION refuse_signup_audit();`);
    try {
      const payload = signupPayload();
      const response = await callFn(t, 'createAffiliate', payload, undefined, '10.77.0.3');
      expect(response.status).toBe(500);
      const { rows } = await t.database.sql.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM auth_users u JOIN affiliates a ON a.user_id = u.id WHERE u.email = $1',
        [payload.email],
      );
      const { rows: accounts } = await t.database.sql.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM auth_users WHERE email = $1',
        [payload.email],
      );
      expect(rows[0]!.n).toBe(0);
      expect(accounts[0]!.n).toBe(0);
    } finally {
      await t.database.sql.exec('DROP TRIGGER refuse_signup_audit ON audit_log; DROP FUNCTION refuse_signup_audit();');
    }
  });
});
