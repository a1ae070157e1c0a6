import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.ts';
import { paydayFor } from '../src/features/payouts/payout-period.ts';
import { cookieFrom, signupPayload } from './helpers/affiliates.ts';
import { createTestDatabaseUrl, TEST_DB } from './helpers/database.ts';
import { startSmtpCapture } from './helpers/email.ts';
import {
  SHARED_SECRETS,
  type ServerProcess,
  fakeSiteBuild,
  startServer,
  until,
  waitUntilServing,
} from './helpers/server-process.ts';
import { IPHONE_USER_AGENT, createVisit } from './helpers/visits.ts';
import { freePort } from './postgres-cluster.ts';

// Scale-out (docs/product/rules-and-constants.md#jobs, docs/operations-processes.md): three real server processes on one PostgreSQL
// behind a small round-robin proxy, each request to the next process, all of them running the
// scheduled jobs every 200 ms. Every job runs once (one payout per affiliate for the payday and one
// recorded run of it, one retention run for the day, each queued e-mail received once); a session
// signed in through one process is recognised by the others (and signed out everywhere); the
// sign-in and visit rate limits count hits from every process; every visit is stored once and each
// visitor counted once. Then WORKERS=2: one command, two workers sharing the port.

const DAY_MS = 24 * 60 * 60 * 1000;
const AFFILIATES = 6;
const EMAILS = 40;
const PROCESSES = 3;
const CODE = 'MANYPROC';
const CLICKS_PER_MINUTE = 6;
const SIGNIN_PER_MINUTE = 5;

/** A round-robin HTTP proxy: each request goes to the next backend, on a connection of its own. */
async function startRoundRobinProxy(port: number, backends: () => number[]) {
  let next = 0;
  const served: number[] = [];
  const server = http.createServer((request, response) => {
    const ports = backends();
    const index = next++ % ports.length;
    served.push(index);
    const upstream = http.request(
      { host: '127.0.0.1', port: ports[index], method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-test-backend': String(index) });
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.writeHead(502).end());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Fixed rate-limit windows: a check that must fit in one starts with room before the window ends. */
async function awayFromWindowEnd(windowMs: number, marginMs: number) {
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 200));
}

describe.skipIf(TEST_DB !== 'postgres')(
  'scale-out: several server processes on one PostgreSQL (PostgreSQL only: the embedded database belongs to one process)',
  () => {
    let dir: string;
    let database: Database;
    let dropDatabase: () => Promise<void>;
    let databaseUrl: string;
    let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
    const servers: ServerProcess[] = [];
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
      await database.sql.query("INSERT INTO referral_codes (code, affiliate_id) VALUES ($1, 'scale-out-affiliate-0')", [
        CODE,
      ]);
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

    async function serverEnv(publicUrl?: string): Promise<Record<string, string>> {
      const port = await freePort();
      return {
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: publicUrl ?? `http://127.0.0.1:${port}`,
        DATA_DIR: path.join(dir, `data-${port}`),
        WEB_BUILD_DIR: path.join(dir, 'site'),
        DATABASE_URL: databaseUrl,
        SMTP_URL: smtp.url,
        JOBS_ENABLED: 'true',
        JOBS_TICK_MS: '200',
        ...SHARED_SECRETS,
      };
    }

    it('refuses to start on PostgreSQL without DATA_ENCRYPTION_KEY', async () => {
      const { DATA_ENCRYPTION_KEY: _key, ...env } = await serverEnv();
      const server = startServer({ ...env, DATA_ENCRYPTION_KEY: '' });
      servers.push(server);
      expect(await server.exited).toBe(1);
      expect(server.output()).toMatch(/DATA_ENCRYPTION_KEY: is required when DATABASE_URL is set/);
    }, 60_000);

    describe('three processes behind a round-robin proxy', () => {
      let proxy: Awaited<ReturnType<typeof startRoundRobinProxy>>;
      const ports: number[] = [];
      const running: ServerProcess[] = [];

      /** A request through the proxy; answers the status, the body, the cookies and which process served. */
      async function call(
        method: string,
        url: string,
        options: { body?: unknown; cookie?: string; client: string },
      ): Promise<{ status: number; body: any; cookie: string; backend: number }> {
        const response = await fetch(`${proxy.url}${url}`, {
          method,
          headers: {
            'content-type': 'application/json',
            origin: proxy.url,
            'user-agent': IPHONE_USER_AGENT,
            'x-forwarded-for': options.client,
            ...(options.cookie ? { cookie: options.cookie } : {}),
          },
          ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        });
        const text = await response.text();
        return {
          status: response.status,
          body: text ? JSON.parse(text) : null,
          cookie: cookieFrom(response.headers.getSetCookie()),
          backend: Number(response.headers.get('x-test-backend')),
        };
      }

      beforeAll(async () => {
        const proxyPort = await freePort();
        proxy = await startRoundRobinProxy(proxyPort, () => ports);
        // One public address, the proxy's: pages, cookies and the API's origin check are the same on every process.
        for (let i = 0; i < PROCESSES; i++) {
          const env = await serverEnv(proxy.url);
          ports.push(Number(env.PORT));
          const server = startServer({
            ...env,
            TRUST_PROXY: 'true',
            RATE_LIMIT_CLICKS_PER_MINUTE: String(CLICKS_PER_MINUTE),
            RATE_LIMIT_SIGNIN_PER_MINUTE: String(SIGNIN_PER_MINUTE),
          });
          servers.push(server);
          running.push(server);
        }
        await Promise.all(running.map((server, i) => waitUntilServing(`http://127.0.0.1:${ports[i]}`, server)));
      }, 120_000);

      afterAll(async () => {
        await proxy?.close();
      });

      it('runs every job exactly once across the processes', async () => {
        await until(async () => smtp.recipients.length >= EMAILS, 'the queued e-mails');
        await until(
          async () =>
            (await count(
              "SELECT count(*)::int AS n FROM job_runs WHERE status = 'done' AND job IN ('payouts', 'retention')",
            )) === 2,
          'the payday and the retention',
        );
        // Every process keeps ticking for a while: nothing may run again.
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
        // The approval ran: every commission whose hold is over is approved, by one run each.
        expect(await count("SELECT count(*)::int AS n FROM conversions WHERE status = 'pending'")).toBe(0);
        expect(
          await count(
            "SELECT count(*)::int AS n FROM conversions WHERE source_event_id LIKE '%-pending' AND status = 'approved'",
          ),
        ).toBe(AFFILIATES);
        // One payout per affiliate for the payday, from one run recorded once.
        expect(await count('SELECT count(*)::int AS n FROM payouts WHERE scheduled_for = $1', [payday])).toBe(
          AFFILIATES,
        );
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
          await count("SELECT count(*)::int AS n FROM audit_log WHERE action = 'payouts.run' AND subject = $1", [
            payday,
          ]),
        ).toBe(1);
        // One retention run for the day.
        expect(
          await count(
            "SELECT count(*)::int AS n FROM job_runs WHERE job = 'retention' AND run_key = $1 AND status = 'done' AND attempts = 1",
            [today],
          ),
        ).toBe(1);
      }, 120_000);

      it('recognises on every process a session signed in through one, and ends it everywhere', async () => {
        const account = signupPayload();
        const signup = await call('POST', '/api/fn/createAffiliate', { body: { data: account }, client: '10.70.0.1' });
        expect(signup.status, JSON.stringify(signup.body)).toBe(200);

        const signIn = await call('POST', '/api/auth/sign-in/email', {
          body: { email: account.email, password: account.password },
          client: '10.70.0.2',
        });
        expect(signIn.status).toBe(200);
        expect(signIn.cookie).toMatch(/sk\.session_token=/);

        // The next requests go to each process in turn: every one knows the session.
        const reads = [];
        for (let i = 0; i < PROCESSES; i++) {
          reads.push(
            await call('POST', '/api/fn/getAffiliateSettings', {
              body: { data: null },
              cookie: signIn.cookie,
              client: '10.70.0.2',
            }),
          );
        }
        expect(reads.map((read) => read.status)).toEqual([200, 200, 200]);
        expect(new Set([signIn.backend, ...reads.map((read) => read.backend)]).size).toBe(PROCESSES);

        // Signed out through one process: no process accepts the session any more.
        const signOut = await call('POST', '/api/auth/sign-out', {
          body: {},
          cookie: signIn.cookie,
          client: '10.70.0.2',
        });
        expect(signOut.status).toBe(200);
        const after = [];
        for (let i = 0; i < PROCESSES; i++) {
          after.push(
            await call('POST', '/api/fn/getAffiliateSettings', {
              body: { data: null },
              cookie: signIn.cookie,
              client: '10.70.0.2',
            }),
          );
        }
        expect(after.map((read) => read.status)).toEqual([401, 401, 401]);
        expect(new Set(after.map((read) => read.backend)).size).toBe(PROCESSES);
      }, 60_000);

      it('counts sign-in attempts and visits of one client across the processes', async () => {
        await awayFromWindowEnd(60_000, 15_000);
        // Wrong passwords from one client, spread over the three processes: the limit trips at its total.
        const attempts = [];
        for (let i = 0; i < SIGNIN_PER_MINUTE + 2; i++) {
          attempts.push(
            await call('POST', '/api/auth/sign-in/email', {
              body: { email: 'nobody@example.com', password: 'not the password' },
              client: '203.0.113.50',
            }),
          );
        }
        expect(attempts.map((attempt) => attempt.status)).toEqual([
          ...Array<number>(SIGNIN_PER_MINUTE).fill(401),
          429,
          429,
        ]);
        expect(new Set(attempts.map((attempt) => attempt.backend)).size).toBe(PROCESSES);

        // Visits of one client: RATE_LIMIT_CLICKS_PER_MINUTE in all, not per process.
        const visits = [];
        for (let i = 0; i < CLICKS_PER_MINUTE + 3; i++) {
          visits.push(
            await call('POST', '/api/fn/storePreInstallData', {
              body: { data: createVisit({ code: CODE, sessionId: `limited-visitor-${i}` }) },
              client: '203.0.113.60',
            }),
          );
        }
        expect(visits.map((visit) => visit.status)).toEqual([
          ...Array<number>(CLICKS_PER_MINUTE).fill(200),
          429,
          429,
          429,
        ]);
        expect(visits[CLICKS_PER_MINUTE]?.body).toMatchObject({ error: { status: 'RESOURCE_EXHAUSTED' } });
        expect(new Set(visits.map((visit) => visit.backend)).size).toBe(PROCESSES);
      }, 120_000);

      it('stores every visit once and counts each visitor once per code and hour', async () => {
        await awayFromWindowEnd(60 * 60_000, 10_000);
        const VISITORS = 30;
        const trackingIds: string[] = [];
        for (let visitor = 0; visitor < VISITORS; visitor++) {
          // Two visits of one visitor, each through another process (the proxy takes turns).
          const backends: number[] = [];
          for (let visit = 0; visit < 2; visit++) {
            const answer = await call('POST', '/api/fn/storePreInstallData', {
              body: {
                data: createVisit({ code: CODE, sessionId: `counted-visitor-${String(visitor).padStart(4, '0')}` }),
              },
              client: `10.60.0.${visitor}`,
            });
            expect(answer.status, JSON.stringify(answer.body)).toBe(200);
            trackingIds.push(answer.body.result.trackingId as string);
            backends.push(answer.backend);
          }
          expect(backends[0]).not.toBe(backends[1]);
        }
        expect(new Set(trackingIds).size).toBe(2 * VISITORS);
        expect(
          await count('SELECT count(*)::int AS n FROM clicks WHERE tracking_id = ANY($1::text[])', [trackingIds]),
        ).toBe(2 * VISITORS);
        expect(
          await count('SELECT count(*)::int AS n FROM clicks WHERE tracking_id = ANY($1::text[]) AND counted', [
            trackingIds,
          ]),
        ).toBe(VISITORS);
        expect(
          await count(
            "SELECT count(*)::int AS n FROM click_counts cc JOIN clicks c ON c.id = cc.click_id WHERE c.session_id LIKE 'counted-visitor-%'",
          ),
        ).toBe(VISITORS);
      }, 60_000);

      it('stops every process cleanly on SIGTERM', async () => {
        for (const server of running) server.child.kill('SIGTERM');
        for (const server of running) expect(await server.exited, server.output()).toBe(0);
      }, 60_000);
    });

    describe('WORKERS=2', () => {
      let server: ServerProcess;
      let dropEmpty: () => Promise<void>;
      let baseUrl: string;

      afterAll(async () => {
        if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
        await dropEmpty?.();
      });

      const lines = () =>
        server
          .output()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as { msg?: string; pid?: number; workerPid?: number; role?: string });
      const listening = () => lines().filter((line) => line.msg === 'worker listening');
      const servedBy = async (requests: number) => {
        const before = lines().filter((line) => line.msg === 'request completed').length;
        for (let i = 0; i < requests; i++) {
          // A connection each: the primary hands each new connection to the next worker.
          const response = await fetch(`${baseUrl}/robots.txt`, { headers: { connection: 'close' } });
          expect(response.status).toBe(200);
        }
        await until(
          () => lines().filter((line) => line.msg === 'request completed').length >= before + requests,
          'the request log',
        );
        return new Set(
          lines()
            .filter((line) => line.msg === 'request completed')
            .slice(before)
            .map((line) => line.pid),
        );
      };

      it('migrates once in the primary, serves from both workers, restarts a crashed one, stops on SIGTERM', async () => {
        const empty = await createTestDatabaseUrl({ migrated: false });
        dropEmpty = empty.drop;
        const env = await serverEnv();
        baseUrl = env.PUBLIC_URL as string;
        server = startServer({ ...env, DATABASE_URL: empty.url, WORKERS: '2', JOBS_ENABLED: 'false' });
        servers.push(server);
        await until(() => listening().length === 2, 'two workers listening', 90_000);

        // The migrations ran once, in the primary, before any worker started.
        const migrations = lines().filter((line) => line.msg === 'migrations applied');
        expect(migrations).toHaveLength(1);
        expect(migrations[0]?.role).toBe('primary');
        const firstWorkerLine = lines().findIndex((line) => line.msg === 'worker started');
        expect(lines().findIndex((line) => line.msg === 'migrations applied')).toBeLessThan(firstWorkerLine);

        const workers = new Set(listening().map((line) => line.workerPid));
        expect(workers.size).toBe(2);
        expect(await servedBy(4)).toEqual(workers);

        // A worker that dies is replaced; the port is served all along.
        const [crashed] = [...workers];
        process.kill(crashed as number, 'SIGKILL');
        await until(() => server.output().includes('worker exited: starting another'), 'the crash to be noticed');
        expect((await fetch(`${baseUrl}/robots.txt`)).status).toBe(200);
        await until(() => listening().length === 3, 'a new worker', 90_000);
        const replaced = new Set(listening().map((line) => line.workerPid));
        replaced.delete(crashed);
        expect(replaced.size).toBe(2);
        expect(await servedBy(4)).toEqual(replaced);

        // SIGTERM to the primary: it asks each worker to shut down, waits for them, exits 0.
        server.child.kill('SIGTERM');
        expect(await server.exited, server.output()).toBe(0);
        expect(lines().filter((line) => line.msg === 'worker stopped')).toHaveLength(2);
        expect(lines().filter((line) => line.msg === 'shut down')).toHaveLength(3);
      }, 180_000);
    });
  },
);
