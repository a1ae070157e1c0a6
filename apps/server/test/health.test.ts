import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { visitQueueLength, visitWriterFor } from '../src/features/landing/visit-writer.ts';
import { markShuttingDown } from '../src/http/health.ts';
import { type TestApp, createTestApp, memoryMailer, testConfig } from './helpers/app.ts';
import { createTestDatabase } from './helpers/database.ts';
import { visitRow } from './helpers/visits.ts';

// Liveness and readiness for load balancers: /healthz answers while the process runs; /readyz says
// whether this process should get traffic — not when its database does not answer, lacks a
// migration this code ships, when the visit writer is backed up, or once shutdown has begun. No
// authentication, nothing personal, no rate limit, no request-log lines. Runs on PGlite and
// PostgreSQL.

async function get(t: Pick<TestApp, 'app'>, url: string) {
  const response = await t.app.inject({ method: 'GET', url, remoteAddress: '198.51.100.7' });
  return { status: response.statusCode, body: response.json() as any, headers: response.headers };
}

describe('health and readiness', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('/healthz: 200 with a tiny JSON body and the security headers of every answer', async () => {
    const { status, body, headers } = await get(t, '/healthz');
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'ok' });
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['content-security-policy']).toContain("default-src 'none'");
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['x-content-type-options']).toBe('nosniff');
    const head = await t.app.inject({ method: 'HEAD', url: '/healthz' });
    expect(head.statusCode).toBe(200);
  });

  it('/readyz: 200 on a reachable, migrated database with an idle visit writer', async () => {
    const { status, body, headers } = await get(t, '/readyz');
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'ready' });
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('/readyz: 503 migrations-pending when the database lacks a migration this code ships', async () => {
    const { rows } = await t.database.sql.query<{ name: string }>(
      'DELETE FROM schema_migrations WHERE name = (SELECT max(name) FROM schema_migrations) RETURNING name',
    );
    try {
      expect(await get(t, '/readyz')).toMatchObject({
        status: 503,
        body: { status: 'not-ready', reasons: ['migrations-pending'] },
      });
    } finally {
      await t.database.sql.query('INSERT INTO schema_migrations (name) VALUES ($1)', [rows[0]!.name]);
    }
    expect((await get(t, '/readyz')).status).toBe(200);
  });

  it('/readyz: 503 migrations-pending on a database nothing was applied to', async () => {
    await t.database.sql.exec('ALTER TABLE schema_migrations RENAME TO schema_migrations_aside');
    try {
      expect(await get(t, '/readyz')).toMatchObject({ status: 503, body: { reasons: ['migrations-pending'] } });
    } finally {
      await t.database.sql.exec('ALTER TABLE schema_migrations_aside RENAME TO schema_migrations');
    }
  });

  it('/readyz: 503 clicks-backed-up while visits pile up behind a stalled commit, 200 once they are stored', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let locked: () => void = () => {};
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    // A transaction holding the clicks table: the writer's commits wait behind it (on PGlite, whose
    // one connection serves one transaction at a time, every query does).
    const holder = t.database.db.transaction(async (tx) => {
      await tx.execute(sql`LOCK TABLE clicks IN EXCLUSIVE MODE`);
      locked();
      await gate;
    });
    await lockTaken;
    const writer = visitWriterFor(t.context);
    // Two commits of 500 in flight, the rest queued: well over four batches.
    const visits = Array.from({ length: 3100 }, () => writer.record(visitRow()));
    try {
      expect(visitQueueLength(t.context)).toBeGreaterThan(2000);
      const { status, body } = await get(t, '/readyz');
      expect(status).toBe(503);
      expect(body.status).toBe('not-ready');
      expect(body.reasons).toContain('clicks-backed-up');
    } finally {
      release();
      await holder;
    }
    await Promise.all(visits);
    expect(visitQueueLength(t.context)).toBe(0);
    expect(await get(t, '/readyz')).toMatchObject({ status: 200, body: { status: 'ready' } });
  });

  it('is not rate limited: 320 probes in a row all answer 200', async () => {
    for (let i = 0; i < 320; i++) {
      const { status } = await get(t, '/healthz');
      if (status !== 200) throw new Error(`probe ${i} answered ${status}`);
    }
  });
});

describe('readiness when shutting down or without a database', () => {
  it('/readyz: 503 shutting-down once shutdown has begun; /healthz still 200', async () => {
    const t = await createTestApp();
    try {
      expect((await get(t, '/readyz')).status).toBe(200);
      markShuttingDown(t.app);
      expect(await get(t, '/readyz')).toMatchObject({
        status: 503,
        body: { status: 'not-ready', reasons: ['shutting-down'] },
      });
      expect((await get(t, '/healthz')).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('/readyz: 503 database-unreachable once the database is closed', async () => {
    const t = await createTestApp();
    await t.database.close();
    try {
      expect(await get(t, '/readyz')).toMatchObject({
        status: 503,
        body: { status: 'not-ready', reasons: ['database-unreachable'] },
      });
      expect((await get(t, '/healthz')).status).toBe(200);
    } finally {
      await t.app.close();
    }
  });
});

describe('probes stay out of the request log', () => {
  const lines: { msg?: string; reqId?: string; req?: { url?: string } }[] = [];
  let app: Awaited<ReturnType<typeof buildApp>>['app'];
  let close: () => Promise<void>;
  beforeAll(async () => {
    const database = await createTestDatabase();
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    ({ app } = await buildApp({
      config: testConfig({ LOG_LEVEL: 'info', METRICS_TOKEN: 'metrics-token-0123456789' }),
      database,
      mailer: memoryMailer().mailer,
      serveSite: false,
      logger: { level: 'info', stream },
    }));
    await app.ready();
    close = async () => {
      await app.close();
      await database.close();
    };
  });
  afterAll(() => close());

  it('no request lines for /healthz, /readyz and /metrics; other requests keep theirs', async () => {
    for (const url of ['/healthz', '/readyz', '/metrics', '/api/no-such-endpoint']) {
      await app.inject({
        method: 'GET',
        url,
        headers: { authorization: 'Bearer metrics-token-0123456789' },
      });
    }
    const logged = lines.filter((line) => line.msg === 'incoming request').map((line) => line.req?.url);
    expect(logged).toEqual(['/api/no-such-endpoint']);
  });
});
