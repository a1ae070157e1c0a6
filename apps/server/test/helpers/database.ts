import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';

/** Which database this test project runs on (vitest.config.ts sets TEST_DB). */
export const TEST_DB = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/** The migrated embedded database the run's global setup wrote (pglite-global-setup.ts), read once a file. */
let pgliteTemplate: Uint8Array<ArrayBuffer> | undefined;

/**
 * A fresh, migrated database for one test file: an in-memory PGlite started from the run's migrated
 * template (on its own thread, as the server runs it), or a copy of the migrated template database on
 * the test PostgreSQL cluster. Call `close()` in afterAll.
 */
export async function createTestDatabase(): Promise<Database> {
  if (TEST_DB === 'pglite') {
    pgliteTemplate ??= new Uint8Array(readFileSync(inject('pgliteTemplatePath')));
    const database = openDatabase({ pgliteDir: 'memory://', pgliteTemplate });
    // Nothing to apply: the template is migrated (a migration added since would be applied here).
    await migrate(database.sql);
    return database;
  }
  const templateUrl = inject('postgresTemplateUrl');
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: templateUrl.replace(/\/[^/]+$/, '/postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE skanova_template`);
  await admin.end();
  const database = openDatabase({ url: templateUrl.replace(/\/[^/]+$/, `/${name}`), poolSize: 20 });
  const close = database.close;
  return {
    ...database,
    async close() {
      await close();
      const cleanup = new pg.Client({ connectionString: templateUrl.replace(/\/[^/]+$/, '/postgres') });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/**
 * A fresh, migrated PostgreSQL database of the test cluster by its URL, for server processes the
 * test starts itself (PostgreSQL project only); `migrated: false` leaves it empty (the server
 * migrates it). Call `drop()` in afterAll.
 */
export async function createTestDatabaseUrl(
  options: { migrated?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const templateUrl = inject('postgresTemplateUrl');
  const name = `test_${randomBytes(6).toString('hex')}`;
  const adminUrl = templateUrl.replace(/\/[^/]+$/, '/postgres');
  const run = async (sql: string) => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(sql);
    } finally {
      await admin.end();
    }
  };
  await run(`CREATE DATABASE ${name}${options.migrated === false ? '' : ' TEMPLATE skanova_template'}`);
  return {
    url: templateUrl.replace(/\/[^/]+$/, `/${name}`),
    drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
