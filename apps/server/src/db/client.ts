import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { type DatabaseSnapshot, snapshotPglite } from './pglite-snapshot.ts';
import * as affiliatesSchema from './schema/affiliates.ts';
import * as auditLogSchema from './schema/audit-log.ts';
import * as authSchema from './schema/auth.ts';
import * as dashboardTotalsSchema from './schema/dashboard-totals.ts';
import * as landingSchema from './schema/landing.ts';
import * as ledgerSchema from './schema/ledger.ts';
import * as programmeSchema from './schema/programme.ts';
import * as reviewSchema from './schema/review.ts';
import * as supportTicketsSchema from './schema/support-tickets.ts';
import * as webVitalsSchema from './schema/web-vitals.ts';
import * as webhooksSchema from './schema/webhooks.ts';
import { PGliteThread } from './pglite-thread.ts';

/** Every table Drizzle knows (one file per area in ./schema, no barrel). */
const schema = {
  ...authSchema,
  ...affiliatesSchema,
  ...landingSchema,
  ...supportTicketsSchema,
  ...webVitalsSchema,
  ...auditLogSchema,
  ...programmeSchema,
  ...ledgerSchema,
  ...dashboardTotalsSchema,
  ...webhooksSchema,
  ...reviewSchema,
};

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Raw SQL access shared by migrations, batch writers and tests: same calls on both drivers. */
export interface SqlClient {
  /** Runs one parameterised statement. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[], options?: QueryOptions): Promise<{ rows: T[] }>;
  /** Runs a script of several statements (no parameters). */
  exec(text: string): Promise<void>;
  /** Runs `fn` on one dedicated connection (PostgreSQL) or the only one (PGlite). */
  withConnection<T>(fn: (conn: Pick<SqlClient, 'query' | 'exec'>) => Promise<T>): Promise<T>;
}

export interface QueryOptions {
  /**
   * A name for a statement of fixed text run on every request (the dashboard's statistics, the
   * session lookup, the visits' batch, the shared rate limits' count). On PostgreSQL it is prepared
   * once per connection and runs on the pool of such statements, whose connections reuse one generic
   * plan: left to choose, PostgreSQL planned the statistics statement afresh on every run (its custom
   * plans look cheaper than the generic one), and that planning cost more than running it
   * (docs/benchmarks.md). Only statements whose plan does not depend on their parameters' values
   * belong here: every lookup is by key. The name must always go with the same text. PGlite has no
   * named statements: ignored there.
   */
  name?: string;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  sql: SqlClient;
  close(): Promise<void>;
  /** Connections in use, for the metrics: PostgreSQL's pool, or PGlite's one connection. */
  poolUse(): { total: number; idle: number | null; waiting: number | null; max: number };
  /** Embedded database only: a consistent copy of its data folder while it serves (`npm run backup`). */
  snapshot?: () => Promise<DatabaseSnapshot>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; unset = embedded PGlite. */
  url?: string | undefined;
  /** PGlite data folder; `memory://` keeps it in memory (tests). */
  pgliteDir?: string;
  /**
   * An in-memory PGlite starts as a copy of this data folder (an uncompressed tar, as `dumpDataDir`
   * makes it) instead of an empty one: the tests' migrated template, a fifth of the time of creating
   * and migrating a database.
   */
  pgliteTemplate?: Uint8Array<ArrayBuffer>;
  /** PostgreSQL pool size. */
  poolSize?: number;
  /**
   * PGlite on its own worker thread (default), or on the caller's thread (`false`: one-off scripts
   * that would rather not start a thread, and the benchmarks' comparison).
   */
  pgliteThread?: boolean;
}

export function openDatabase(options: DatabaseOptions): Database {
  return options.url
    ? openPostgres(options.url, options.poolSize ?? 10)
    : openPglite(options.pgliteDir ?? 'memory://', options.pgliteThread ?? true, options.pgliteTemplate);
}

function openPglite(dir: string, onThread: boolean, template: Uint8Array<ArrayBuffer> | undefined): Database {
  const inMemory = dir.startsWith('memory://');
  if (template && !inMemory) throw new Error('A PGlite template is for an in-memory database only.');
  if (!inMemory) mkdirSync(path.resolve(dir), { recursive: true });
  // The thread answers the part of PGlite's interface that Drizzle and this client use.
  const client = onThread
    ? (new PGliteThread(dir, template) as unknown as PGlite)
    : template
      ? new PGlite({ dataDir: dir, loadDataDir: new Blob([template]) })
      : new PGlite(dir);
  const sql: SqlClient = {
    async query(text, params) {
      const result = await client.query(text, params as unknown[] | undefined);
      return { rows: result.rows as never[] };
    },
    async exec(text) {
      await client.exec(text);
    },
    withConnection: (fn) => fn(sql),
  };
  return {
    kind: 'pglite',
    db: drizzlePglite({ client, schema }) as unknown as Db,
    sql,
    close: () => client.close(),
    // One connection in the process, always open; queries queue inside PGlite, unseen from here.
    poolUse: () => ({ total: 1, idle: null, waiting: null, max: 1 }),
    snapshot: () => snapshotPglite(client),
  };
}

/** The share of a process's connections kept for the named statements (QueryOptions.name). */
const NAMED_POOL_SHARE = 0.5;

/**
 * `url` with a setting added to the session's startup options (`?options=-c …`), after any it names;
 * `url` itself when it is no URL this can read (the driver then reports what is wrong with it).
 */
export function withSessionSetting(url: string, setting: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const options = parsed.searchParams.get('options');
  parsed.searchParams.set('options', options ? `${options} -c ${setting}` : `-c ${setting}`);
  return parsed.toString();
}

/**
 * A `bigint` as PGlite answers it: a number when it is exact as one, else a JavaScript bigint.
 * node-postgres alone answers text, so a raw statement reading a 64-bit column (the money columns
 * since migration 0006) would get a number on one database and text on the other. Set for the whole
 * process, as node-postgres keeps its parsers: Drizzle's sessions pass their own parsers for dates and
 * fall back to these for the rest, so raw statements in a transaction read the same.
 */
function parseInt8(value: string): number | bigint {
  const big = BigInt(value);
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
}
pg.types.setTypeParser(pg.types.builtins.INT8, parseInt8);

function openPostgres(url: string, poolSize: number): Database {
  const namedPoolSize = Math.max(1, Math.round(poolSize * NAMED_POOL_SHARE));
  const pool = new pg.Pool({ connectionString: url, max: Math.max(1, poolSize - namedPoolSize) });
  // Set when the connection starts (PostgreSQL 12 or later), before any statement.
  const namedPool = new pg.Pool({
    connectionString: withSessionSetting(url, 'plan_cache_mode=force_generic_plan'),
    max: namedPoolSize,
  });
  // An idle client's error (e.g. the server restarted) must not crash the process.
  pool.on('error', () => {});
  namedPool.on('error', () => {});
  const run = (client: Pick<pg.Pool, 'query'>, text: string, params?: unknown[], options?: QueryOptions) =>
    options?.name
      ? client.query({ name: options.name, text, values: params })
      : client.query(text, params as unknown[] | undefined);
  const sql: SqlClient = {
    async query(text, params, options) {
      const result = await run(options?.name ? namedPool : pool, text, params, options);
      return { rows: result.rows };
    },
    async exec(text) {
      await pool.query(text);
    },
    async withConnection(fn) {
      const conn = await pool.connect();
      try {
        return await fn({
          query: async (text, params, options) => ({ rows: (await run(conn, text, params, options)).rows }),
          exec: async (text) => {
            await conn.query(text);
          },
        });
      } finally {
        conn.release();
      }
    },
  };
  return {
    kind: 'postgres',
    db: drizzlePg({ client: pool, schema }) as unknown as Db,
    sql,
    close: async () => {
      await Promise.all([pool.end(), namedPool.end()]);
    },
    poolUse: () => ({
      total: pool.totalCount + namedPool.totalCount,
      idle: pool.idleCount + namedPool.idleCount,
      waiting: pool.waitingCount + namedPool.waitingCount,
      max: poolSize,
    }),
  };
}
