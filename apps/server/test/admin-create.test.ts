import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCreate } from '../src/cli/admin-create.ts';
import { claimDataDir } from '../src/db/backup/control-channel.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { OPERATOR_LINK_SECONDS, OperatorInputError, createOperator } from '../src/features/admin/operators.ts';
import { type TestApp, TEST_PUBLIC_URL, createTestApp } from './helpers/app.ts';
import { callFn, createTestAffiliate, signIn } from './helpers/affiliates.ts';
import { resetPassword, tokenOf } from './helpers/operators.ts';

// `npm run admin:create -- <email>` (docs/product/routes-and-screens.md#operator-console): the account becomes an operator (created with a
// password nobody knows when missing) and a one-time link to the existing reset page lets its owner
// choose a password; then the operator signs in and reaches the console's functions.

const HOUR_MS = 60 * 60 * 1000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function userRow(email: string) {
  const { rows } = await t.database.sql.query<{ id: string; role: string; banned: boolean; password: string | null }>(
    `SELECT u.id, u.role, u.banned, a.password FROM auth_users u LEFT JOIN auth_accounts a ON a.user_id = u.id AND a.provider_id = 'credential' WHERE u.email = $1`,
    [email],
  );
  return rows[0];
}

async function auditOf(subject: string) {
  const { rows } = await t.database.sql.query<{ actor: string; action: string; details: Record<string, unknown> }>(
    'SELECT actor, action, details FROM audit_log WHERE subject = $1 ORDER BY id',
    [subject],
  );
  return rows;
}

describe('createOperator', () => {
  it('creates an operator whose link sets the password once, then signs in to the console', async () => {
    const setup = await createOperator(t.context, '  New.Operator@Example.com ');
    expect(setup).toMatchObject({ email: 'new.operator@example.com', created: true, unbanned: false });
    expect(setup.setPasswordUrl).toMatch(new RegExp(`^${TEST_PUBLIC_URL}/affiliate/reset-password\\?token=[\\w-]+$`));
    expect(setup.expiresAt.getTime()).toBe(t.clock.now.getTime() + OPERATOR_LINK_SECONDS * 1000);

    const user = await userRow('new.operator@example.com');
    expect(user).toMatchObject({ id: setup.userId, role: 'admin', banned: false });
    // An account with a password (hashed, unknown to anyone) and no affiliate profile.
    expect(user?.password).toMatch(/\S{20,}/);
    const { rows: profiles } = await t.database.sql.query('SELECT id FROM affiliates WHERE user_id = $1', [
      setup.userId,
    ]);
    expect(profiles).toEqual([]);
    // The auth library's own reset token: the reset page needs nothing new.
    const token = tokenOf(setup.setPasswordUrl);
    const { rows: tokens } = await t.database.sql.query<{ value: string; expires_at: Date }>(
      'SELECT value, expires_at FROM auth_verifications WHERE identifier = $1',
      [`reset-password:${token}`],
    );
    expect(tokens).toHaveLength(1);
    expect(tokens[0]!.value).toBe(setup.userId);
    expect(new Date(tokens[0]!.expires_at).getTime()).toBe(setup.expiresAt.getTime());
    expect(await auditOf(setup.userId)).toEqual([
      {
        actor: 'system',
        action: 'operator.created',
        details: { email: setup.email, unbanned: false, linkExpiresAt: setup.expiresAt.toISOString() },
      },
    ]);

    expect((await signIn(t, setup.email, 'operator password 1', '10.60.0.1')).status).toBe(401);
    expect(await resetPassword(t, token, 'operator password 1', '10.60.0.1')).toEqual({
      status: 200,
      body: { status: true },
    });
    const again = await resetPassword(t, token, 'another password 2', '10.60.0.1');
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('INVALID_TOKEN');

    const login = await signIn(t, setup.email, 'operator password 1', '10.60.0.1');
    expect(login.status).toBe(200);
    expect(login.body.user.role).toBe('admin');
    const list = await callFn(t, 'adminListAuditLog', { action: 'operator.' }, login.cookie);
    expect(list.status).toBe(200);
    expect(list.body.result.items.map((entry: { subject: string }) => entry.subject)).toContain(setup.userId);
  });

  it('promotes an existing affiliate, whose password and profile stay, and lifts a ban', async () => {
    const affiliate = await createTestAffiliate(t);
    expect((await callFn(t, 'adminListAuditLog', {}, affiliate.cookie)).status).toBe(403);
    await t.database.sql.query('UPDATE auth_users SET banned = true, ban_reason = $2 WHERE email = $1', [
      affiliate.email,
      'test ban',
    ]);

    const setup = await createOperator(t.context, affiliate.email.toUpperCase());
    expect(setup).toMatchObject({ email: affiliate.email, created: false, unbanned: true });
    expect(await userRow(affiliate.email)).toMatchObject({ role: 'admin', banned: false });
    const { rows } = await t.database.sql.query('SELECT id FROM affiliates WHERE user_id = $1', [setup.userId]);
    expect(rows).toEqual([{ id: affiliate.affiliateId }]);
    expect((await auditOf(setup.userId)).map((entry) => [entry.action, entry.details.unbanned])).toEqual([
      ['operator.promoted', true],
    ]);

    // The role is read on every call: the session already open reaches the console; the old password works.
    expect((await callFn(t, 'adminListAuditLog', {}, affiliate.cookie)).status).toBe(200);
    const login = await signIn(t, affiliate.email, affiliate.password, '10.60.0.2');
    expect(login.status).toBe(200);
    expect((await callFn(t, 'adminListAuditLog', {}, login.cookie)).status).toBe(200);
    // Running the command again gives a new link; the account is unchanged.
    const second = await createOperator(t.context, affiliate.email);
    expect(second).toMatchObject({ userId: setup.userId, created: false, unbanned: false });
    expect(second.setPasswordUrl).not.toBe(setup.setPasswordUrl);
  });

  it('gives a link that no longer works after a day', async () => {
    const real = t.clock.now;
    t.clock.now = new Date(Date.now() - OPERATOR_LINK_SECONDS * 1000 - HOUR_MS);
    try {
      const setup = await createOperator(t.context, 'late.operator@example.com');
      const reset = await resetPassword(t, tokenOf(setup.setPasswordUrl), 'operator password 1', '10.60.0.3');
      expect(reset.status).toBe(400);
      expect(reset.body.code).toBe('INVALID_TOKEN');
    } finally {
      t.clock.now = real;
    }
  });

  it('refuses what is not an e-mail address, creating nothing', async () => {
    const count = async () =>
      (
        await t.database.sql.query<{ n: number }>(
          'SELECT (SELECT count(*) FROM auth_users) + (SELECT count(*) FROM audit_log) AS n',
        )
      ).rows[0]!.n;
    const before = await count();
    for (const bad of ['', 'not-an-address', 'a@b', 'x'.repeat(250) + '@example.com']) {
      await expect(createOperator(t.context, bad)).rejects.toBeInstanceOf(OperatorInputError);
    }
    expect(await count()).toBe(before);
  });
});

describe('npm run admin:create', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'skanova-admin-create-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  // The command opens the configured database itself: here an embedded one in a folder of its own.
  const env = () => ({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'https://partners.example.com',
    DATA_DIR: dataDir,
  });

  it('migrates the database, creates the operator and prints the link, then promotes on a second run', async () => {
    const output = await runAdminCreate(['boss@example.com'], env());
    const link = /^ {2}(https:\/\/partners\.example\.com\/affiliate\/reset-password\?token=\S+)$/m.exec(output)?.[1];
    expect(output).toMatch(/^Created the operator account boss@example\.com\.$/m);
    expect(output).toMatch(/^Then sign in at https:\/\/partners\.example\.com\/admin$/m);
    expect(link).toBeTruthy();
    const second = await runAdminCreate(['boss@example.com'], env());
    expect(second).toMatch(/^boss@example\.com is now an operator\.$/m);
    const newest = /^ {2}(https:\/\/partners\.example\.com\/affiliate\/reset-password\?token=\S+)$/m.exec(second)?.[1];
    expect(newest).toBeTruthy();

    // The newest printed link works with the server's reset flow on that database; the first one
    // ended when the second was printed (only the newest link works: domain/reset-links.ts).
    const database = openDatabase({ pgliteDir: path.join(dataDir, 'db') });
    // Same configuration as the command: the secrets it generated into the folder are read back.
    const { app } = await buildApp({
      config: loadConfig({ ...env(), JOBS_ENABLED: 'false' }),
      database,
      serveSite: false,
      logger: false,
    });
    try {
      const headers = { 'content-type': 'application/json', origin: 'https://partners.example.com' };
      const reset = (token: string) =>
        app.inject({
          method: 'POST',
          url: '/api/auth/reset-password',
          headers,
          payload: { token, newPassword: 'boss password 1' },
        });
      expect((await reset(tokenOf(link!))).statusCode).toBe(400);
      expect((await reset(tokenOf(newest!))).statusCode).toBe(200);
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        headers,
        payload: { email: 'boss@example.com', password: 'boss password 1' },
      });
      expect(login.statusCode).toBe(200);
      expect(login.json().user.role).toBe('admin');
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('is refused while a server holds the embedded database, and opens nothing', async () => {
    const server = await claimDataDir(dataDir, 'server');
    try {
      await expect(runAdminCreate(['second@example.com'], env())).rejects.toThrow(
        /in use by a running server \(pid \d+\)/,
      );
    } finally {
      await server.close();
    }
    expect(await runAdminCreate(['second@example.com'], env())).toMatch(/^Created the operator account/m);
  });

  it('prints its usage without exactly one address', async () => {
    await expect(runAdminCreate([], env())).rejects.toThrow('Usage: npm run admin:create -- <email>');
    await expect(runAdminCreate(['a@example.com', 'b@example.com'], env())).rejects.toThrow('Usage');
  });
});
