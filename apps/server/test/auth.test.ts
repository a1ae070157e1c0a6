import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, TEST_PUBLIC_URL, createTestApp, memoryMailer } from './helpers/app.ts';
import { callFn, createTestAffiliate, signIn, signupPayload } from './helpers/affiliates.ts';

const mail = memoryMailer();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ mailer: mail.mailer });
});
afterAll(() => t.close());

async function count(table: string): Promise<number> {
  const { rows } = await t.database.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0]?.n ?? 0;
}

describe('signup (createAffiliate)', () => {
  it('creates the account, the profile and the session together', async () => {
    const payload = signupPayload({
      paymentMethod: 'bank_transfer',
      paymentDetails: {
        bankName: 'BNP',
        bankIban: 'FR76 3000 6000 0112 3456 7890 189',
        bic: 'BNPAFRPP',
        accountHolder: 'Ada Lovelace',
      },
    });
    const response = await callFn(t, 'createAffiliate', payload, undefined, '10.0.0.1');
    expect(response.status).toBe(200);
    expect(response.body.result.status).toBe('active');
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/Max-Age=2592000/);
    const { rows } = await t.database.sql.query<{ iban_encrypted: string; iban_last4: string }>(
      'SELECT pm.iban_encrypted, pm.iban_last4 FROM payment_methods pm JOIN affiliates a ON a.id = pm.affiliate_id WHERE a.id = $1',
      [response.body.result.affiliateId],
    );
    expect(rows[0]?.iban_last4).toBe('0189');
    expect(rows[0]?.iban_encrypted).not.toContain('3000');
  });

  it('dates the profile and its payment method by the application’s clock', async () => {
    const signedUpAt = new Date('2025-01-20T09:30:00.000Z');
    t.clock.now = signedUpAt;
    try {
      const payload = signupPayload({
        paymentMethod: 'paypal',
        paymentDetails: { paypalEmail: 'clock@paypal.example.com' },
      });
      const response = await callFn(t, 'createAffiliate', payload, undefined, '10.0.0.3');
      expect(response.status).toBe(200);
      const { rows } = await t.database.sql.query<Record<string, Date>>(
        `SELECT a.created_at, a.updated_at, a.terms_accepted_at, pm.created_at AS method_created_at,
                pm.updated_at AS method_updated_at
         FROM affiliates a JOIN payment_methods pm ON pm.affiliate_id = a.id WHERE a.id = $1`,
        [response.body.result.affiliateId],
      );
      for (const value of Object.values(rows[0] ?? {}))
        expect(new Date(value).toISOString()).toBe(signedUpAt.toISOString());
      expect(Object.keys(rows[0] ?? {})).toHaveLength(5);
    } finally {
      t.clock.now = new Date();
    }
  });

  it('leaves nothing half-made when the profile cannot be written', async () => {
    const before = {
      users: await count('auth_users'),
      accounts: await count('auth_accounts'),
      sessions: await count('auth_sessions'),
      affiliates: await count('affiliates'),
    };
    // The profile insert fails after the library has written the user, account and session rows in
    // the same transaction: a constraint added for this test refuses one last name.
    await t.database.sql.exec(`ALTER TABLE affiliates ADD CONSTRAINT test_refuse_zed CHECK (last_name <> 'Zed')`);
    try {
      const response = await callFn(t, 'createAffiliate', signupPayload({ lastName: 'Zed' }), undefined, '10.0.0.2');
      expect(response.status).toBe(500);
      expect(response.headers['set-cookie']).toBeUndefined();
    } finally {
      await t.database.sql.exec('ALTER TABLE affiliates DROP CONSTRAINT test_refuse_zed');
    }
    expect({
      users: await count('auth_users'),
      accounts: await count('auth_accounts'),
      sessions: await count('auth_sessions'),
      affiliates: await count('affiliates'),
    }).toEqual(before);
  });

  it('answers a duplicate e-mail with its own code', async () => {
    const first = await createTestAffiliate(t);
    const response = await callFn(
      t,
      'createAffiliate',
      signupPayload({ email: first.email.toUpperCase() }),
      undefined,
      '10.0.0.3',
    );
    expect(response.status).toBe(409);
    expect(response.body.error?.details?.code).toBe('email-taken');
  });

  it('refuses invalid payment details with the detail code', async () => {
    const response = await callFn(
      t,
      'createAffiliate',
      signupPayload({
        paymentMethod: 'bank_transfer',
        paymentDetails: { bankName: 'X', bankIban: 'FR7630006000011234567890188', bic: 'BNPAFRPP', accountHolder: 'A' },
      }),
      undefined,
      '10.0.0.4',
    );
    expect(response.status).toBe(400);
    expect(response.body.error?.details?.fields).toEqual([
      { path: 'paymentDetails.bankIban', key: 'payment:errors.invalid-iban-checksum' },
    ]);
  });
});

describe('sign-in', () => {
  it('signs in, reads the session, signs out', async () => {
    const affiliate = await createTestAffiliate(t);
    const login = await signIn(t, affiliate.email, affiliate.password, '10.1.0.1');
    expect(login.status).toBe(200);
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie: login.cookie },
    });
    expect(session.json().user.email).toBe(affiliate.email);
  });

  it('maps a wrong password and a disabled account', async () => {
    const affiliate = await createTestAffiliate(t);
    const wrong = await signIn(t, affiliate.email, 'not the password', '10.1.0.2');
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('INVALID_EMAIL_OR_PASSWORD');
    await t.database.sql.query('UPDATE auth_users SET banned = true WHERE email = $1', [affiliate.email]);
    const banned = await signIn(t, affiliate.email, affiliate.password, '10.1.0.3');
    expect(banned.status).toBe(403);
    expect(banned.body.code).toBe('BANNED_USER');
  });

  it('limits attempts per IP (5 per minute)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await signIn(t, `nobody${i}@example.com`, 'whatever123', '10.2.0.1')).status);
    expect(statuses.slice(0, 5).every((s) => s === 401)).toBe(true);
    expect(statuses[5]).toBe(429);
  });

  it('limits failed attempts per e-mail (10 per hour) across IPs', async () => {
    const affiliate = await createTestAffiliate(t);
    for (let i = 0; i < 10; i++)
      expect((await signIn(t, affiliate.email, 'wrong-password', `10.3.0.${i}`)).status).toBe(401);
    expect((await signIn(t, affiliate.email, affiliate.password, '10.3.1.1')).status).toBe(429);
  });

  it('blocks the endpoints the web client does not use (direct sign-up)', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL },
      payload: { email: 'x@example.com', password: 'password123', name: 'x' },
    });
    expect(response.statusCode).toBe(404);
  });
});

describe('password reset', () => {
  it('e-mails a one-time link and sets the new password', async () => {
    const affiliate = await createTestAffiliate(t);
    mail.sent.length = 0;
    const request = await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL },
      payload: { email: affiliate.email, redirectTo: '/affiliate/reset-password' },
    });
    expect(request.statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const message = mail.sent.find((m) => m.to === affiliate.email);
    const token = /token=([^&\s]+)/.exec(message?.text ?? '')?.[1];
    expect(token).toBeTruthy();
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL },
      payload: { token: decodeURIComponent(token ?? ''), newPassword: 'a brand new one' },
    });
    expect(reset.statusCode).toBe(200);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL },
      payload: { token: decodeURIComponent(token ?? ''), newPassword: 'another one 123' },
    });
    expect(again.statusCode).toBe(400);
    expect((await signIn(t, affiliate.email, 'a brand new one', '10.4.0.1')).status).toBe(200);
  });

  it('answers the same for an unknown address', async () => {
    const request = await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL },
      payload: { email: 'nobody-here@example.com', redirectTo: '/affiliate/reset-password' },
    });
    expect(request.statusCode).toBe(200);
  });
});

describe('change password', () => {
  it('needs the current password, then e-mails the account and writes the audit log', async () => {
    const affiliate = await createTestAffiliate(t);
    const change = (currentPassword: string, cookie: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/change-password',
        headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL, cookie },
        remoteAddress: '10.5.0.1',
        payload: { currentPassword, newPassword: 'changed password 1', revokeOtherSessions: true },
      });
    const wrong = await change('not my password', affiliate.cookie);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('INVALID_PASSWORD');
    mail.sent.length = 0;
    const right = await change(affiliate.password, affiliate.cookie);
    expect(right.statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(mail.sent.some((m) => m.to === affiliate.email && /password was changed/.test(m.subject))).toBe(true);
    const { rows } = await t.database.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'password.changed' AND subject = $1`,
      [affiliate.affiliateId],
    );
    expect(rows[0]?.n).toBe(1);
    expect((await signIn(t, affiliate.email, 'changed password 1', '10.5.0.2')).status).toBe(200);
  });
});

describe('manual approval (AFFILIATE_APPROVAL=manual)', () => {
  it('creates the profile as pending', async () => {
    const manual = await createTestApp({ env: { AFFILIATE_APPROVAL: 'manual' } });
    try {
      const response = await callFn(manual, 'createAffiliate', signupPayload(), undefined, '10.6.0.1');
      expect(response.status).toBe(200);
      expect(response.body.result.status).toBe('pending');
      const { rows } = await manual.database.sql.query<{ status: string }>(
        'SELECT status FROM affiliates WHERE id = $1',
        [response.body.result.affiliateId],
      );
      expect(rows[0]?.status).toBe('pending');
    } finally {
      await manual.close();
    }
  });
});
