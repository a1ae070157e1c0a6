import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

// A consistent copy of the embedded database while it serves (`npm run backup`). PGlite runs PostgreSQL
// in this process on one connection: every query, statement and transaction goes through its
// transaction lock. Holding that lock (an empty read-only transaction) while PGlite copies its data
// folder (`dumpDataDir`) means no write can land during the copy, so the copy is one moment of the
// database: committed transactions are in it (their WAL is written at commit), a transaction
// interrupted half-way is not (PostgreSQL's recovery discards it when the copy is opened). A
// CHECKPOINT just before keeps the WAL the copy has to replay short. Requests wait for the copy:
// about a second per 100 MB of data folder.

export interface DatabaseSnapshot {
  /** The PGlite data folder as an uncompressed tar, as `dumpDataDir('none')` produces it. */
  tarball: Uint8Array;
  /** What the snapshot holds, read inside the same lock as the copy. */
  info: SnapshotInfo;
}

export interface SnapshotInfo {
  /** When the copy was taken (UTC, ISO 8601). */
  takenAt: string;
  pgliteVersion: string;
  /** PostgreSQL's `server_version` inside PGlite, e.g. "17.5": its major version must match to open the copy. */
  postgresVersion: string;
  /** Names of the applied migrations (`schema_migrations`), in order. */
  migrations: string[];
  /** Rows of every table of the public schema at the moment of the copy. */
  tables: Record<string, number>;
  /** How long writes waited for the copy, in milliseconds. */
  heldMs: number;
}

let installedVersion: string | undefined;

/** The installed `@electric-sql/pglite` package's version (its package.json is not exported: read it from disk). */
export function installedPgliteVersion(): string {
  if (installedVersion) return installedVersion;
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  let dir = path.dirname(entry);
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === '@electric-sql/pglite' && pkg.version) return (installedVersion = pkg.version);
    } catch {
      // No package.json at this level: keep going up.
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the version of @electric-sql/pglite');
    dir = parent;
  }
}

/** Quotes an identifier read from the catalogue. */
const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Reads the applied migrations and each table's rows on `query`: the facts a restore checks. */
export async function describeDatabase(
  query: <T>(text: string) => Promise<{ rows: T[] }>,
): Promise<Pick<SnapshotInfo, 'postgresVersion' | 'migrations' | 'tables'>> {
  const version = await query<{ server_version: string }>('SHOW server_version');
  const tableNames = await query<{ name: string }>(
    "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
  );
  const names = tableNames.rows.map((row) => row.name);
  const migrations = names.includes('schema_migrations')
    ? (await query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).rows.map((row) => row.name)
    : [];
  const tables: Record<string, number> = {};
  if (names.length > 0) {
    const counts = await query<{ name: string; n: number }>(
      names
        .map((name) => `SELECT '${name.replaceAll("'", "''")}' AS name, count(*)::int AS n FROM ${ident(name)}`)
        .join(' UNION ALL '),
    );
    for (const row of counts.rows) tables[row.name] = row.n;
  }
  return { postgresVersion: version.rows[0]?.server_version ?? 'unknown', migrations, tables };
}

/** Copies the database as one moment (see above). */
export async function snapshotPglite(client: PGlite): Promise<DatabaseSnapshot> {
  await client.exec('CHECKPOINT');
  const held = await client.transaction(async (tx) => {
    const started = performance.now();
    await tx.exec('SET TRANSACTION READ ONLY');
    const facts = await describeDatabase((text) => tx.query(text));
    const takenAt = new Date().toISOString();
    const blob = await client.dumpDataDir('none');
    return { blob, facts, takenAt, heldMs: Math.round(performance.now() - started) };
  });
  return {
    tarball: new Uint8Array(await held.blob.arrayBuffer()),
    info: {
      takenAt: held.takenAt,
      pgliteVersion: installedPgliteVersion(),
      ...held.facts,
      heldMs: held.heldMs,
    },
  };
}
