import type { AppServices } from '../services.ts';
import type { SqlClient } from './client.ts';

// Erasure in the files (docs/decisions/017-erasure-in-the-files.md). Deleting a row does not remove its
// bytes: PostgreSQL (and PGlite, which is PostgreSQL) keeps the dead row in its table's and indexes'
// pages until they are rewritten, the planner's statistics keep sampled values, and the write-ahead
// log keeps every row written, in segments that are renamed for reuse with their old content. A
// deleted account's address and names stayed in the data folder, and in every backup taken later.
// The storage maintenance, run once a day after retention (jobs/scheduler.ts), rewrites them away:
//
// 1. every table that holds personal data is rewritten with only its live rows (VACUUM FULL, which
//    rebuilds its indexes and TOAST table too);
// 2. their planner's statistics, which hold sampled values, are dropped and taken afresh from the
//    live rows, and the statistics catalogue (pg_statistic) is rewritten without the old ones;
// 3. the write-ahead log moves past every segment written before the run: segment switches and
//    checkpoints until none is left, older than the one in use or renamed for reuse ahead of it (a
//    checkpoint deletes the segments it no longer needs when `wal_recycle` is off, as it is on the
//    embedded database from this job on and as production PostgreSQL must be set).
//
// Each step that PostgreSQL refuses to an unprivileged role is skipped and reported (the job's counts,
// a warning in the log): docs/deployment.md, "Erasure", lists what the role needs.

/**
 * The tables that hold personal data, or held it before a deletion or a retention step cleared it:
 * accounts, sessions and reset tokens; profiles and payment methods; code descriptions; support
 * tickets; the e-mail outbox; payouts' payment details and export files (after five years).
 */
export const PERSONAL_TABLES = [
  'auth_users',
  'auth_sessions',
  'auth_accounts',
  'auth_verifications',
  'affiliates',
  'payment_methods',
  'referral_codes',
  'support_tickets',
  'email_outbox',
  'payouts',
  'payout_exports',
] as const;

/**
 * How long the job waits, at most, for the transactions of other connections that began before it: a
 * row deleted is kept by the rewrite while a transaction that may still see it is open (a request in
 * flight, an autovacuum's analysis). Past this, it goes on; what they kept goes at the next run.
 */
const OLDER_TRANSACTIONS_WAIT_MS = 60_000;

/** At most this many segment switches in one run: more than a default `max_wal_size` (1 GB) holds. */
const MAX_WAL_ROUNDS = 80;

export interface StorageMaintenanceResult {
  /** Tables rewritten with only their live rows. */
  tablesRewritten: number;
  /** The planner's statistics rewritten. */
  statisticsRewritten: boolean;
  /** Write-ahead log segments switched past. */
  walSwitches: number;
  /**
   * Every write-ahead log segment written before the run is gone: deleted, not renamed for reuse.
   * False when a step was refused or `wal_recycle` is on (the reason is in `skipped`).
   */
  walErased: boolean;
  /** The steps refused or impossible, and why ('' when none). */
  skipped: string;
}

type MaintenanceApp = Pick<AppServices, 'database' | 'log'>;

/**
 * PostgreSQL's "insufficient privilege" errors, and "lock not available": a rewrite that would wait
 * longer than LOCK_TIMEOUT for its table is given up (every query of the table would queue behind it).
 */
function isRefused(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === '42501' || code === '55P03';
}

/** The longest a rewrite waits for its table's lock (PostgreSQL); the embedded database has one connection. */
const LOCK_TIMEOUT = '5s';

/** Runs `statement`; answers false (and notes why) when the role may not run it. */
async function attempt(conn: Pick<SqlClient, 'query'>, statement: string, skipped: string[]): Promise<boolean> {
  try {
    await conn.query(statement);
    return true;
  } catch (error) {
    if (!isRefused(error)) throw error;
    skipped.push(`${statement.split(/\s+/, 1)[0] ?? statement}: ${(error as Error).message}`);
    return false;
  }
}

/**
 * Waits until no other connection to this database has a transaction (or a snapshot) older than this
 * moment, for at most `maxWaitMs`; answers how many still had one (PostgreSQL: the embedded database
 * has one connection, this one).
 */
async function waitForOlderTransactions(conn: Pick<SqlClient, 'query'>, maxWaitMs: number): Promise<number> {
  const { rows } = await conn.query<{ marker: string }>(
    'SELECT (pg_current_xact_id()::text::bigint % 4294967296)::text AS marker',
  );
  const marker = rows[0]?.marker ?? '0';
  const deadline = Date.now() + maxWaitMs;
  for (;;) {
    const { rows: older } = await conn.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid()
         AND ((backend_xmin IS NOT NULL AND age(backend_xmin) > age($1::xid))
           OR (backend_xid IS NOT NULL AND age(backend_xid) > age($1::xid)))`,
      [marker],
    );
    const count = older[0]?.n ?? 0;
    if (count === 0 || Date.now() >= deadline) return count;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Whether the role is a superuser (VACUUM FULL of a system catalogue needs it, or PostgreSQL 17's MAINTAIN). */
async function isSuperuser(conn: Pick<SqlClient, 'query'>): Promise<boolean> {
  const { rows } = await conn.query<{ on: boolean }>("SELECT current_setting('is_superuser') = 'on' AS on");
  return rows[0]?.on ?? false;
}

/**
 * How many write-ahead log segment files, other than the one in use, were last written before `since`:
 * older segments, and segments renamed for reuse (a rename keeps a file's time), which still hold what
 * was written in them. Segments created since (zero-filled) do not count.
 */
async function staleSegments(conn: Pick<SqlClient, 'query'>, since: string): Promise<number | { refused: string }> {
  try {
    const { rows } = await conn.query<{ stale: number }>(
      `SELECT count(*)::int AS stale FROM pg_ls_waldir()
       WHERE name ~ '^[0-9A-F]{24}$' AND name <> pg_walfile_name(pg_current_wal_lsn()) AND modification < $1::timestamptz`,
      [since],
    );
    return rows[0]?.stale ?? 0;
  } catch (error) {
    if (!isRefused(error)) throw error;
    return { refused: (error as Error).message };
  }
}

/** Rewrites away what deleted rows left in the database's files (see the top of this file). */
export async function runStorageMaintenance(
  app: MaintenanceApp,
  options: { olderTransactionsWaitMs?: number } = {},
): Promise<StorageMaintenanceResult> {
  const { database } = app;
  const skipped: string[] = [];
  const run = async (conn: Pick<SqlClient, 'query'>) => {
    // VACUUM cannot run in a transaction: each statement on its own, on one connection.
    // VACUUM skips, with a mere warning, a table its role does not own: those are reported instead.
    const { rows: owned } = await conn.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c
       WHERE c.relname = ANY($1::text[]) AND c.relnamespace = current_schema()::regnamespace
         AND (pg_has_role(current_user, c.relowner, 'MEMBER') OR current_setting('is_superuser') = 'on')`,
      [[...PERSONAL_TABLES]],
    );
    const ownedNames = new Set(owned.map((row) => row.name));
    if (database.kind === 'postgres') {
      const older = await waitForOlderTransactions(conn, options.olderTransactionsWaitMs ?? OLDER_TRANSACTIONS_WAIT_MS);
      if (older > 0) {
        skipped.push(`${older} transactions open since before the run: the rows they may see stay until the next run`);
      }
    }
    let tablesRewritten = 0;
    for (const table of PERSONAL_TABLES) {
      if (!ownedNames.has(table)) skipped.push(`VACUUM FULL ${table}: the role does not own the table`);
      else if (await attempt(conn, `VACUUM FULL ${table}`, skipped)) tablesRewritten += 1;
    }
    // ANALYZE of a table left empty keeps its old statistics, sampled values included: they are
    // dropped first (a superuser's right), then taken afresh from the live rows, and the catalogue's
    // file is rewritten without the old ones.
    let statisticsRewritten = false;
    if (await isSuperuser(conn)) {
      await conn.query('DELETE FROM pg_catalog.pg_statistic WHERE starelid = ANY($1::regclass[])', [
        [...PERSONAL_TABLES],
      ]);
      for (const table of PERSONAL_TABLES) await attempt(conn, `ANALYZE ${table}`, skipped);
      statisticsRewritten = await attempt(conn, 'VACUUM FULL pg_catalog.pg_statistic', skipped);
    } else {
      for (const table of PERSONAL_TABLES) await attempt(conn, `ANALYZE ${table}`, skipped);
      skipped.push('pg_statistic: clearing and rewriting the statistics needs a superuser');
    }

    // The write-ahead log. The embedded database runs its checkpoints in this very connection: the
    // setting below is the one they read. PostgreSQL's checkpointer reads the server's configuration.
    let recycling = false;
    if (database.kind === 'pglite') {
      await conn.query('SET wal_recycle = off');
    } else {
      const { rows } = await conn.query<{ wal_recycle: string }>('SHOW wal_recycle');
      recycling = rows[0]?.wal_recycle !== 'off';
      if (recycling) skipped.push('wal_recycle is on: old segments are renamed for reuse with their content');
    }
    let walSwitches = 0;
    let walErased = false;
    const { rows: started } = await conn.query<{ at: string }>('SELECT clock_timestamp()::text AS at');
    const since = started[0]?.at ?? new Date().toISOString();
    const switchPast = async () => {
      if (!(await attempt(conn, 'SELECT pg_switch_wal()', skipped))) return false;
      walSwitches += 1;
      return attempt(conn, 'CHECKPOINT', skipped);
    };
    // The checkpoint gives the switch something to end; the first switch leaves the segment that holds
    // what was written before the run. Then, while a segment written before the run is left (older, or
    // renamed for reuse ahead of the one in use), switch past it. Once none is, one more switch: the
    // segment it enters cannot be an old one, and the checkpoint deletes the one it leaves.
    if ((await attempt(conn, 'CHECKPOINT', skipped)) && (await switchPast())) {
      for (let round = 0; round < MAX_WAL_ROUNDS; round++) {
        const stale = await staleSegments(conn, since);
        if (typeof stale !== 'number') {
          skipped.push(`pg_ls_waldir: ${stale.refused}`);
          break;
        }
        if (!(await switchPast())) break;
        if (stale === 0) {
          walErased = !recycling;
          break;
        }
      }
    }
    return { tablesRewritten, statisticsRewritten, walSwitches, walErased };
  };
  const result = await database.sql.withConnection(async (conn) => {
    if (database.kind !== 'postgres') return run(conn);
    // A session setting of a pooled connection: reset before the connection goes back.
    await conn.query(`SET lock_timeout = '${LOCK_TIMEOUT}'`);
    try {
      return await run(conn);
    } finally {
      await conn.query('RESET lock_timeout');
    }
  });
  if (skipped.length > 0) {
    app.log.warn({ skipped }, 'storage maintenance: steps skipped, deleted data may remain in the files');
  }
  return { ...result, skipped: skipped.join('; ') };
}
