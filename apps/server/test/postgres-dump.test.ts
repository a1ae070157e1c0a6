import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { describeDatabase } from '../src/db/pglite-snapshot.ts';
import { createTestDatabaseUrl, TEST_DB } from './helpers/database.ts';
import { findBinDir } from './postgres-cluster.ts';

// The PostgreSQL backup of docs/deployment.md, run as written: `pg_dump --format=custom` of a live
// database, `pg_restore` into a new empty one. The copy holds every row, its migrations are all
// applied (the server would start on it with nothing to do), and its sequences continue after the
// copied rows (a new conversion does not collide with a restored one).
//
// PostgreSQL project only: the embedded database has its own backup (backup-restore.test.ts).

describe.skipIf(TEST_DB !== 'postgres')('pg_dump and pg_restore (docs/deployment.md)', () => {
  let dir: string;
  let source: { url: string; drop(): Promise<void> };
  let database: Database;
  const targetName = `restored_${Math.random().toString(36).slice(2, 10)}`;
  let targetUrl: string;
  let adminUrl: string;

  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'skanova-pg-dump-'));
    source = await createTestDatabaseUrl();
    adminUrl = source.url.replace(/\/[^/]+$/, '/postgres');
    targetUrl = source.url.replace(/\/[^/]+$/, `/${targetName}`);
    database = openDatabase({ url: source.url, poolSize: 2 });
    for (let i = 0; i < 3; i++) {
      const id = `dump-affiliate-${i}`;
      await database.sql.query(
        "INSERT INTO affiliates (id, first_name, status, language) VALUES ($1, 'Ada', 'active', 'fr')",
        [id],
      );
      await database.sql.query(
        "INSERT INTO payment_methods (id, affiliate_id, type, paypal_email) VALUES ($1, $2, 'paypal', $3)",
        [`${id}-method`, id, `${id}@paypal.example`],
      );
      const { rows } = await database.sql.query<{ id: number }>(
        'INSERT INTO referral_codes (code, affiliate_id) VALUES ($1, $2) RETURNING id::int AS id',
        [`DUMP${i}CODE`, id],
      );
      const payout = await database.sql.query<{ id: string }>(
        `INSERT INTO payouts (affiliate_id, period_start, period_end, amount_cents, method, method_snapshot, status, scheduled_for)
         VALUES ($1, '2025-01-01', '2025-01-31', 2400, 'paypal', '{"type":"paypal"}', 'paid', '2025-02-15') RETURNING id::text AS id`,
        [id],
      );
      await database.sql.query(
        `INSERT INTO conversions (source_event_id, app_user_id, affiliate_id, referral_code_id, occurred_at, commission_cents, rate_tier, status, approved_at, payout_id)
         SELECT $1 || '-' || n, $1 || '-user-' || n, $1, $2, now() - interval '60 days', 200, 'standard', 'paid', now() - interval '30 days', $3::uuid
         FROM generate_series(1, 12) AS n`,
        [id, rows[0]!.id, payout.rows[0]!.id],
      );
      await database.sql.query(
        `INSERT INTO clicks (tracking_id, type, code, referral_code_id, visitor_key, is_bot, counted)
         SELECT $1 || '-track-' || n, 'ref', $2, $3, $1 || '-visitor-' || n, false, true FROM generate_series(1, 50) AS n`,
        [id, `DUMP${i}CODE`, rows[0]!.id],
      );
    }
  }, 60_000);

  afterAll(async () => {
    await database?.close();
    await source?.drop();
    if (adminUrl) await admin(`DROP DATABASE IF EXISTS ${targetName} WITH (FORCE)`);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('restores a dump of the live database into a new one that the product can serve', async () => {
    // Beside the pg_ctl the test cluster runs (a link on the PATH may stand for it alone).
    const bin = path.dirname(realpathSync(path.join(findBinDir()!, 'pg_ctl')));
    const file = path.join(dir, 'skanova.dump');
    // While the pool holds connections (the product running): pg_dump reads one consistent snapshot.
    await database.sql.query('SELECT 1');
    execFileSync(path.join(bin, 'pg_dump'), [
      '--format=custom',
      '--no-owner',
      '--no-privileges',
      `--file=${file}`,
      source.url,
    ]);
    await admin(`CREATE DATABASE ${targetName} TEMPLATE template0`);
    execFileSync(path.join(bin, 'pg_restore'), [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      '--single-transaction',
      `--dbname=${targetUrl}`,
      file,
    ]);

    const copy = openDatabase({ url: targetUrl, poolSize: 1 });
    try {
      const query = <T>(text: string) => database.sql.query<T>(text);
      const queryCopy = <T>(text: string) => copy.sql.query<T>(text);
      const original = await describeDatabase(query);
      const restored = await describeDatabase(queryCopy);
      expect(restored.migrations).toEqual(original.migrations);
      expect(restored.tables).toEqual(original.tables);
      expect(original.tables).toMatchObject({ affiliates: 3, conversions: 36, payouts: 3, clicks: 150 });
      expect(await migrate(copy.sql)).toEqual([]);

      const max = await copy.sql.query<{ id: number }>('SELECT max(id)::int AS id FROM conversions');
      const next = await copy.sql.query<{ id: number }>(
        `INSERT INTO conversions (source_event_id, app_user_id, affiliate_id, occurred_at, commission_cents, rate_tier, status)
         VALUES ('after-restore', 'after-restore-user', 'dump-affiliate-0', now(), 200, 'standard', 'pending') RETURNING id::int AS id`,
      );
      expect(next.rows[0]!.id).toBeGreaterThan(max.rows[0]!.id);
    } finally {
      await copy.close();
    }
  }, 60_000);
});
