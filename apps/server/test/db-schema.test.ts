import { readdirSync } from 'node:fs';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { createTestDatabase } from './helpers/database.ts';

// The SQL migrations are the source of truth; the Drizzle schema is how the code reads and writes
// them. This holds the two in step: every table the migrations create has its Drizzle table, with
// the same columns, types and nullability — a migration without its schema change fails here.

/** Every module of the schema folder, so that a new schema file is covered the day it is written. */
async function schemaModules(): Promise<Record<string, unknown>[]> {
  const folder = new URL('../src/db/schema/', import.meta.url);
  const files = readdirSync(folder).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
  return Promise.all(files.map((name) => import(new URL(name, folder).href) as Promise<Record<string, unknown>>));
}

/** Tables of the migration runner itself, not of the product. */
const BOOKKEEPING_TABLES = new Set(['schema_migrations']);

interface ColumnShape {
  type: string;
  nullable: boolean;
}

async function drizzleTables(): Promise<Map<string, Map<string, ColumnShape>>> {
  const tables = new Map<string, Map<string, ColumnShape>>();
  const seen = new Set<PgTable>();
  for (const module of await schemaModules()) {
    for (const value of Object.values(module)) {
      if (!(value instanceof PgTable) || seen.has(value)) continue;
      seen.add(value);
      const config = getTableConfig(value);
      const columns = new Map<string, ColumnShape>();
      const compositeKey = new Set(config.primaryKeys.flatMap((key) => key.columns.map((column) => column.name)));
      for (const column of config.columns) {
        columns.set(column.name, {
          type: normaliseType(column.getSQLType()),
          nullable: !column.notNull && !column.primary && !compositeKey.has(column.name),
        });
      }
      expect(tables.has(config.name), `${config.name} is declared twice`).toBe(false);
      tables.set(config.name, columns);
    }
  }
  return tables;
}

/** Drizzle and information_schema spell some types differently; this is the one spelling compared. */
function normaliseType(type: string): string {
  const lower = type.toLowerCase();
  if (lower.startsWith('timestamp') && lower.includes('with time zone')) return 'timestamptz';
  if (lower.startsWith('numeric')) return 'numeric';
  // information_schema says ARRAY whatever the element type; Drizzle says `text[]`.
  if (lower.endsWith('[]')) return 'array';
  const aliases: Record<string, string> = {
    'timestamp with time zone': 'timestamptz',
    'double precision': 'double precision',
    real: 'real',
    'character varying': 'text',
  };
  return aliases[lower] ?? lower;
}

describe('Drizzle schema', () => {
  let database: Database;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database.close();
  });

  it('declares every table of the migrations, with its columns, types and nullability', async () => {
    const { rows } = await database.sql.query<{
      table_name: string;
      column_name: string;
      data_type: string;
      is_nullable: 'YES' | 'NO';
    }>(
      `SELECT table_name, column_name, data_type, is_nullable
         FROM information_schema.columns
        WHERE table_schema = 'public'
        ORDER BY table_name, ordinal_position`,
    );
    const migrated = new Map<string, Map<string, ColumnShape>>();
    for (const row of rows) {
      if (BOOKKEEPING_TABLES.has(row.table_name)) continue;
      const columns = migrated.get(row.table_name) ?? new Map<string, ColumnShape>();
      columns.set(row.column_name, { type: normaliseType(row.data_type), nullable: row.is_nullable === 'YES' });
      migrated.set(row.table_name, columns);
    }
    const declared = await drizzleTables();

    expect([...declared.keys()].sort()).toEqual([...migrated.keys()].sort());
    for (const [table, columns] of migrated) {
      expect.soft(Object.fromEntries(declared.get(table) ?? []), table).toEqual(Object.fromEntries(columns));
    }
  });
});
