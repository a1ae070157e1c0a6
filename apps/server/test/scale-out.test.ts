import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVED_PAGES } from '@skanova/shared/site/pages';
import { LANGUAGES } from '@skanova/shared/site/constants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.ts';
import { paydayFor } from '../src/features/payouts/payout-period.ts';
import { createTestDatabaseUrl, TEST_DB } from './helpers/database.ts';
import { startSmtpCapture } from './helpers/email.ts';
import { freePort } from './postgres-cluster.ts';

// Scale-out (BRIEF §1): two real server processes on one PostgreSQL, both running the scheduled
// jobs every 200 ms. Every job runs once: one payout per affiliate for the payday and one recorded
// run of it, one retention run for the day, each queued e-mail received once by the SMTP server.

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const DAY_MS = 24 * 60 * 60 * 1000;
const AFFILIATES = 6;
const EMAILS = 40;
const SECRETS = {
  IP_HASH_SECRET: 'scale-out-secret-scale-out-secret-0123',
  AUTH_SECRET: 'scale-out-auth-secret-scale-out-auth-01',
  DATA_ENCRYPTION_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
};

/** main.ts serves the built site: a minimal tree with every page it loads stands in for the build. */
function fakeSiteBuild(dir: string) {
  for (const lang of LANGUAGES) {
    const client = path.join(dir, lang, 'client');
    mkdirSync(path.join(client, 'assets'), { recursive: true });
    for (const page of SERVED_PAGES) {
      const folder = page === '/' ? client : path.join(client, page);
      mkdirSync(folder, { recursive: true });
      writeFileSync(
        path.join(folder, 'index.html'),
        `<!doctype html><html lang="${lang}"><title>${page}</title></html>`,
      );
    }
  }
}

interface Server {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(env: Record<string, string>): Server {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(TEST_DB !== 'postgres')(
  'scale-out: two server processes on one PostgreSQL (PostgreSQL only: the embedded database belongs to one process)',
  () => {
    let dir: string;
    let database: Database;
    let dropDatabase: () => Promise<void>;
    let databaseUrl: string;
    let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
    const servers: Server[] = [];
    const payday = paydayFor(new Date());
    const today = new Date().toISOString().slice(0, 10);

    const count = async (sql: string, params: unknown[] = []) =>
      (await database.sql.query<{ n: number }>(sql, params)).rows[0]?.n ?? 0;

    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'skanova-scale-out-'));
      fakeSiteBuild(path.join(dir, 'site'));
      ({ url: databaseUrl, drop: dropDatabase } = await createTestDatabaseUrl());
      database = openDatabase({ url: databaseUrl, poolSize: 2 });
      smtp = await startSmtpCapture();

      // Affiliates with a PayPal account and $24 approved before the payday's cut-off (the 1st).
      const approvedAt = new Date(new Date(`${payday.slice(0, 8)}01T00:00:00Z`).getTime() - 10 * DAY_MS);
      for (let i = 0; i < AFFILIATES; i++) {
        const id = `scale-out-affiliate-${i}`;
        await database.sql.query(
          "INSERT INTO affiliates (id, first_name, status, language) VALUES ($1, 'Ada', 'active', 'en')",
          [id],
        );
        await database.sql.query(
          "INSERT INTO payment_methods (id, affiliate_id, type, paypal_email) VALUES ($1, $2, 'paypal', $3)",
          [`${id}-method`, id, `${id}@paypal.example`],
        );
        await database.sql.query(
          `INSERT INTO conversions (source_event_id, app_user_id, affiliate_id, occurred_at, commission_cents, rate_tier, status, approved_at)
         SELECT $1 || '-' || n, $1 || '-user-' || n, $1, $2::timestamptz - interval '30 days', 200, 'standard', 'approved', $2
         FROM generate_series(1, 12) AS n`,
          [id, approvedAt.toISOString()],
        );
        // One commission whose hold is over, for the approval job.
        await database.sql.query(
          `INSERT INTO conversions (source_event_id, app_user_id, affiliate_id, occurred_at, commission_cents, rate_tier, status)
         VALUES ($1 || '-pending', $1 || '-pending-user', $1, $2, 200, 'standard', 'pending')`,
          [id, new Date(Date.now() - 40 * DAY_MS).toISOString()],
        );
      }
      for (let i = 0; i < EMAILS; i++) {
        await database.sql.query(
          "INSERT INTO email_outbox (kind, to_address, subject, text_body) VALUES ('test', $1, 'Hello', 'Hello')",
          [`reader${i}@example.com`],
        );
      }
    }, 120_000);

    afterAll(async () => {
      for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await database?.close();
      await dropDatabase?.();
      await smtp?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    async function serverEnv(): Promise<Record<string, string>> {
      const port = await freePort();
      return {
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: path.join(dir, `data-${port}`),
        WEB_BUILD_DIR: path.join(dir, 'site'),
        DATABASE_URL: databaseUrl,
        SMTP_URL: smtp.url,
        JOBS_ENABLED: 'true',
        JOBS_TICK_MS: '200',
        ...SECRETS,
      };
    }

    it('refuses to start on PostgreSQL without DATA_ENCRYPTION_KEY', async () => {
      const { DATA_ENCRYPTION_KEY: _key, ...env } = await serverEnv();
      const server = startServer({ ...env, DATA_ENCRYPTION_KEY: '' });
      servers.push(server);
      expect(await server.exited).toBe(1);
      expect(server.output()).toMatch(/DATA_ENCRYPTION_KEY: is required when DATABASE_URL is set/);
    }, 60_000);

    it('runs every job exactly once across both processes', async () => {
      servers.push(startServer(await serverEnv()), startServer(await serverEnv()));
      const running = servers.slice(-2);

      await until(async () => smtp.recipients.length >= EMAILS, 'the queued e-mails');
      await until(
        async () =>
          (await count(
            "SELECT count(*)::int AS n FROM job_runs WHERE status = 'done' AND job IN ('payouts', 'retention')",
          )) === 2,
        'the payday and the retention',
      );
      // Both processes keep ticking for a while: nothing may run again.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      for (const server of running) {
        expect(server.child.exitCode, server.output()).toBeNull();
        expect(server.output()).toContain('scheduler started');
      }

      // Each e-mail received once.
      expect(smtp.recipients).toHaveLength(EMAILS);
      expect(new Set(smtp.recipients).size).toBe(EMAILS);
      expect(
        await count('SELECT count(*)::int AS n FROM email_outbox WHERE sent_at IS NOT NULL AND attempts = 1'),
      ).toBe(EMAILS);
      // The approval ran: every commission whose hold is over is approved.
      expect(await count("SELECT count(*)::int AS n FROM conversions WHERE status = 'pending'")).toBe(0);
      // One payout per affiliate for the payday, from one run recorded once.
      expect(await count('SELECT count(*)::int AS n FROM payouts WHERE scheduled_for = $1', [payday])).toBe(AFFILIATES);
      expect(
        await count('SELECT count(DISTINCT affiliate_id)::int AS n FROM payouts WHERE scheduled_for = $1', [payday]),
      ).toBe(AFFILIATES);
      expect(
        await count(
          "SELECT count(*)::int AS n FROM job_runs WHERE job = 'payouts' AND run_key = $1 AND status = 'done' AND attempts = 1",
          [payday],
        ),
      ).toBe(1);
      expect(
        await count("SELECT count(*)::int AS n FROM audit_log WHERE action = 'payouts.run' AND subject = $1", [payday]),
      ).toBe(1);
      // One retention run for the day.
      expect(
        await count(
          "SELECT count(*)::int AS n FROM job_runs WHERE job = 'retention' AND run_key = $1 AND status = 'done' AND attempts = 1",
          [today],
        ),
      ).toBe(1);

      for (const server of running) server.child.kill('SIGTERM');
      for (const server of running) expect(await server.exited, server.output()).toBe(0);
    }, 120_000);
  },
);
