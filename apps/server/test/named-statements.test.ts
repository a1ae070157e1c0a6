import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, openDatabase, withSessionSetting } from '../src/db/client.ts';
import { createTestDatabaseUrl, TEST_DB } from './helpers/database.ts';

// The statements run on every request carry a name (QueryOptions.name): on PostgreSQL they run on
// connections that reuse one generic plan, where left to choose PostgreSQL planned the dashboard's
// statistics afresh every time (docs/benchmarks.md). Every other statement keeps PostgreSQL's own
// choice, planned with its parameters' values.
//
// PostgreSQL project only: PGlite has no named statements.

describe.skipIf(TEST_DB !== 'postgres')('named statements on PostgreSQL', () => {
  let target: { url: string; drop(): Promise<void> };
  let database: Database;
  const PLAN_MODE = 'SELECT current_setting($1) AS mode';

  beforeAll(async () => {
    target = await createTestDatabaseUrl();
    database = openDatabase({ url: target.url, poolSize: 4 });
  });

  afterAll(async () => {
    await database.close();
    await target.drop();
  });

  it('runs a named statement with one generic plan, on every connection of its pool', async () => {
    const modes = await Promise.all(
      Array.from({ length: 6 }, () =>
        database.sql.query<{ mode: string }>(PLAN_MODE, ['plan_cache_mode'], { name: 'plan-mode' }),
      ),
    );
    expect(modes.map(({ rows }) => rows[0]?.mode)).toEqual(Array(6).fill('force_generic_plan'));
  });

  it('leaves every other statement to PostgreSQL’s choice, also on a dedicated connection', async () => {
    const { rows } = await database.sql.query<{ mode: string }>(PLAN_MODE, ['plan_cache_mode']);
    expect(rows[0]?.mode).toBe('auto');
    const inConnection = await database.sql.withConnection((conn) =>
      conn.query<{ mode: string }>(PLAN_MODE, ['plan_cache_mode']),
    );
    expect(inConnection.rows[0]?.mode).toBe('auto');
  });

  it('connects through a Unix socket as well, with the same setting', async () => {
    const name = new URL(target.url).pathname.slice(1);
    const socketUrl = inject('postgresSocketUrl').replace(/\/[^/?]+\?/, `/${name}?`);
    const viaSocket = openDatabase({ url: socketUrl, poolSize: 2 });
    try {
      const { rows } = await viaSocket.sql.query<{ address: string | null; database: string; mode: string }>(
        `SELECT inet_client_addr() AS address, current_database() AS database, current_setting('plan_cache_mode') AS mode`,
        [],
        { name: 'via-socket' },
      );
      // No client address: the connection is not TCP.
      expect(rows[0]).toEqual({ address: null, database: name, mode: 'force_generic_plan' });
    } finally {
      await viaSocket.close();
    }
  });

  it('keeps the process within its pool size, counted over both pools', async () => {
    await Promise.all([
      ...Array.from({ length: 8 }, () => database.sql.query('SELECT pg_sleep(0.05)', [], { name: 'sleep' })),
      ...Array.from({ length: 8 }, () => database.sql.query('SELECT pg_sleep(0.05)')),
    ]);
    const use = database.poolUse();
    expect(use.max).toBe(4);
    expect(use.total).toBeLessThanOrEqual(4);
    expect(use.total).toBeGreaterThan(0);
  });
});

describe('a session setting in the connection string', () => {
  const setting = 'plan_cache_mode=force_generic_plan';
  const optionsOf = (url: string) => new URL(url).searchParams.get('options');

  it('is added as a startup option, keeping the credentials and the other parameters', () => {
    const url = withSessionSetting('postgres://us%40er:p%40ss@db.example:5433/skanova?sslmode=require', setting);
    const parsed = new URL(url);
    expect([parsed.username, parsed.password, parsed.host, parsed.pathname]).toEqual([
      'us%40er',
      'p%40ss',
      'db.example:5433',
      '/skanova',
    ]);
    expect(parsed.searchParams.get('sslmode')).toBe('require');
    expect(optionsOf(url)).toBe(`-c ${setting}`);
  });

  it('comes after the options the address already names', () => {
    const url = withSessionSetting(
      'postgresql:///skanova?host=/run/postgresql&options=-c%20search_path%3Dapp',
      setting,
    );
    expect(optionsOf(url)).toBe(`-c search_path=app -c ${setting}`);
    expect(new URL(url).searchParams.get('host')).toBe('/run/postgresql');
  });

  it('leaves an address it cannot read as it is', () => {
    expect(withSessionSetting('postgres://[broken', setting)).toBe('postgres://[broken');
  });
});
