import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.ts';
import { inTransaction } from '../src/db/transaction.ts';
import { TEST_DB } from './helpers/database.ts';

// The embedded database on its own worker thread (db/pglite-thread.ts): it answers as the
// in-process PGlite does — values, errors, transactions, a process that ends when its work is
// done — while the server's thread stays free during a statement.

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const TYPES_SQL = `SELECT 1::int AS int, 9007199254740993::bigint AS big, 12.5::numeric AS num, 1.5::float8 AS float,
  'text'::text AS text, true AS bool, NULL::text AS nothing,
  '2026-11-22T10:20:30.123Z'::timestamptz AS at, '2026-11-22'::date AS day,
  '{"a":[1,{"b":"c"}]}'::jsonb AS doc, ARRAY[1,2,3]::int[] AS ints, ARRAY['x','y']::text[] AS texts,
  '\\x00ff10'::bytea AS bytes, $1::text AS param, $2::timestamptz AS param_at`;
const TYPES_PARAMS = ['é ✓', new Date('2020-01-02T03:04:05.678Z')];

describe.skipIf(TEST_DB !== 'pglite')('the embedded database on its own thread (the embedded database only)', () => {
  let threaded: Database;
  let inProcess: Database;

  beforeAll(async () => {
    threaded = openDatabase({ pgliteDir: 'memory://' });
    inProcess = openDatabase({ pgliteDir: 'memory://', pgliteThread: false });
    for (const database of [threaded, inProcess]) {
      await database.sql.exec(
        `CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL UNIQUE, at timestamptz, doc jsonb);
         CREATE TABLE deferred (id int PRIMARY KEY, parent int REFERENCES items (id) DEFERRABLE INITIALLY DEFERRED);`,
      );
    }
  });

  afterAll(async () => {
    await threaded?.close();
    await inProcess?.close();
  });

  it('answers raw statements with the same values as the in-process database', async () => {
    const [a, b] = await Promise.all([
      threaded.sql.query(TYPES_SQL, TYPES_PARAMS),
      inProcess.sql.query(TYPES_SQL, TYPES_PARAMS),
    ]);
    expect(a.rows).toEqual(b.rows);
    expect(a.rows[0]).toMatchObject({ at: new Date('2026-11-22T10:20:30.123Z'), doc: { a: [1, { b: 'c' }] } });
  });

  it('answers Drizzle queries as the in-process database does (its dates stay text)', async () => {
    const query = sql`SELECT '2026-11-22T10:20:30.123Z'::timestamptz AS at, ${'x'}::text AS x, 2::int AS n`;
    const [a, b] = await Promise.all([threaded.db.execute(query), inProcess.db.execute(query)]);
    expect((a as unknown as { rows: unknown[] }).rows).toEqual((b as unknown as { rows: unknown[] }).rows);
  });

  it("reports PostgreSQL's errors with their code, constraint and detail", async () => {
    await threaded.sql.query(`INSERT INTO items (id, name) VALUES (1, 'one')`);
    const error = await threaded.sql.query(`INSERT INTO items (id, name) VALUES (2, 'one')`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      code: '23505',
      constraint: 'items_name_key',
      message: expect.stringContaining('duplicate key'),
    });
    await expect(threaded.sql.query('SELECT * FROM nowhere')).rejects.toMatchObject({ code: '42P01' });
  });

  it('commits a transaction, and rolls one back when its work throws', async () => {
    await inTransaction({ database: threaded }, async (tx) => {
      await tx.query(`INSERT INTO items (id, name) VALUES (10, 'ten')`);
      await tx.db.execute(sql`INSERT INTO items (id, name) VALUES (11, 'eleven')`);
    });
    const failure = inTransaction({ database: threaded }, async (tx) => {
      await tx.query(`INSERT INTO items (id, name) VALUES (12, 'twelve')`);
      throw new Error('changed my mind');
    });
    await expect(failure).rejects.toThrow('changed my mind');
    const { rows } = await threaded.sql.query<{ id: number }>('SELECT id FROM items WHERE id >= 10 ORDER BY id');
    expect(rows.map((row) => row.id)).toEqual([10, 11]);
  });

  it('fails a transaction whose commit fails (a deferred constraint), leaving nothing behind', async () => {
    const failure = inTransaction({ database: threaded }, async (tx) => {
      await tx.query('INSERT INTO deferred (id, parent) VALUES (1, 999)');
    });
    await expect(failure).rejects.toMatchObject({ code: '23503' });
    const { rows } = await threaded.sql.query('SELECT * FROM deferred');
    expect(rows).toEqual([]);
  });

  it('keeps other statements out of an open transaction: they run after it ends', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inserted: () => void = () => {};
    const insertedOnce = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = inTransaction({ database: threaded }, async (tx) => {
      await tx.query(`INSERT INTO items (id, name) VALUES (20, 'twenty')`);
      inserted();
      await gate;
      await tx.query(`UPDATE items SET name = 'twenty, renamed' WHERE id = 20`);
    });
    await insertedOnce;
    // Sent while the transaction is open: it must see the transaction's end, never its middle.
    const outside = threaded.sql.query<{ name: string }>('SELECT name FROM items WHERE id = 20');
    release();
    await transaction;
    expect((await outside).rows).toEqual([{ name: 'twenty, renamed' }]);
  });

  it("leaves the server's thread free while a statement runs", async () => {
    let turns = 0;
    let running = true;
    const spin = () => {
      turns += 1;
      if (running) setImmediate(spin);
    };
    setImmediate(spin);
    const count = async (database: Database) => {
      turns = 0;
      await database.sql.query('SELECT count(*) FROM generate_series(1, 3000000)');
      return turns;
    };
    const onThread = await count(threaded);
    const inCaller = await count(inProcess);
    running = false;
    // In-process, the statement is one synchronous call: the loop turns only between its steps.
    expect(inCaller).toBeLessThan(50);
    expect(onThread).toBeGreaterThan(1000);
  });

  it('takes a backup snapshot through the thread: the data folder as a tarball, the tables counted', async () => {
    const snapshot = await threaded.snapshot?.();
    expect(snapshot?.tarball.byteLength).toBeGreaterThan(1_000_000);
    expect(snapshot?.info.tables).toMatchObject({ items: expect.any(Number) });
  });

  it('lets a script end when its work is done, and not before', () => {
    const script = `
      import { openDatabase } from './apps/server/src/db/client.ts';
      const database = openDatabase({ pgliteDir: 'memory://' });
      database.sql.query('SELECT 41 + 1 AS answer').then(({ rows }) => console.log('answer', rows[0].answer));
    `;
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('answer 42');
    expect(result.status).toBe(0);
  });
});
