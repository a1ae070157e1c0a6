import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SqlClient } from './client.ts';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

/** Arbitrary constant: the advisory lock key that serialises migrations across processes. */
const MIGRATION_LOCK_KEY = 727_274_001;

export interface Migration {
  name: string;
  sql: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({ name: file.replace(/\.sql$/, ''), sql: readFileSync(path.join(dir, file), 'utf8') }));
}

/**
 * Applies the forward-only migrations not yet applied, each in its own transaction, under an advisory
 * lock so that several processes starting at once apply each migration exactly once.
 */
export async function migrate(sql: SqlClient, migrations = readMigrations()): Promise<string[]> {
  return sql.withConnection(async (conn) => {
    await conn.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await conn.exec(
        `CREATE TABLE IF NOT EXISTS schema_migrations (
           name text PRIMARY KEY,
           applied_at timestamptz NOT NULL DEFAULT now()
         )`,
      );
      const { rows } = await conn.query<{ name: string }>('SELECT name FROM schema_migrations');
      const applied = new Set(rows.map((row) => row.name));
      const newlyApplied: string[] = [];
      for (const migration of migrations) {
        if (applied.has(migration.name)) continue;
        await conn.exec('BEGIN');
        try {
          await conn.exec(migration.sql);
          await conn.query('INSERT INTO schema_migrations (name) VALUES ($1)', [migration.name]);
          await conn.exec('COMMIT');
        } catch (error) {
          await conn.exec('ROLLBACK');
          throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
        }
        newlyApplied.push(migration.name);
      }
      return newlyApplied;
    } finally {
      await conn.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  });
}
