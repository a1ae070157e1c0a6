import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { createBackup } from '../src/db/backup/backup.ts';
import { PERSONAL_TABLES, runStorageMaintenance } from '../src/db/storage-maintenance.ts';
import { deliverDueEmails, outboxIdle } from '../src/email/outbox-worker.ts';
import { runDueJobs } from '../src/jobs/scheduler.ts';
import { type TestApp, TEST_PUBLIC_URL, serveTestApp, testConfig } from './helpers/app.ts';
import { callFn, cookieFrom, signIn, signupPayload } from './helpers/affiliates.ts';
import { TEST_DB, createTestDatabaseUrl } from './helpers/database.ts';
import { findBinDir } from './postgres-cluster.ts';

// Erasure in the bytes, not only in the tables (docs/decisions/017-erasure-in-the-files.md): an
// affiliate signs up, uses the product (a session, a referral code, a support ticket with an IBAN and
// a phone number in it, a reset link, e-mails), deletes the account; the day's jobs run (retention,
// the outbox, the storage maintenance). Then no file of the data folder — the embedded database's
// own folder, or the whole PostgreSQL cluster's, write-ahead log included — and no backup taken
// afterwards holds the address, the names, the phone number or the IBAN, in any of their bytes.

const DAY_MS = 24 * 60 * 60 * 1000;

/** A valid French IBAN for a random account number (ISO 13616 check digits), and its BBAN. */
function randomIban(): string {
  const account = String(Math.floor(Math.random() * 1e11)).padStart(11, '0');
  const bban = `30006000${'01'}${account}${'89'}`.slice(0, 23).padEnd(23, '0');
  const numeric = `${bban}FR00`.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  const check = 98 - Number(BigInt(numeric) % 97n);
  return `FR${String(check).padStart(2, '0')}${bban}`;
}

/** Every file under `dir` whose bytes hold one of the needles, with the needle. */
function filesHolding(dir: string, needles: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const file = path.join(folder, name);
      const stat = statSync(file, { throwIfNoEntry: false });
      if (!stat) continue; // removed meanwhile (a segment of the log)
      if (stat.isDirectory()) walk(file);
      else if (stat.isFile()) {
        let bytes: Buffer;
        try {
          bytes = readFileSync(file);
        } catch {
          continue;
        }
        for (const needle of needles) if (bytes.includes(needle)) found.push(`${path.relative(dir, file)}: ${needle}`);
      }
    }
  };
  walk(dir);
  return found;
}

const person = (() => {
  const tag = randomBytes(4).toString('hex');
  const digits = String(Math.floor(Math.random() * 1e8)).padStart(8, '0');
  const iban = randomIban();
  return {
    email: `erasure-${tag}@example.com`,
    firstName: `Philippa${tag}`,
    lastName: `Quaintance${tag}`,
    phone: `+33 6 ${digits.slice(0, 2)} ${digits.slice(2, 4)} ${digits.slice(4, 6)} ${digits.slice(6)}`,
    iban,
    spacedIban: iban.replace(/(.{4})/g, '$1 ').trim(),
  };
})();

/** What must be nowhere: each value as typed, and the compact forms a program might store. */
const NEEDLES = [
  person.email,
  person.firstName,
  person.lastName,
  person.phone,
  person.phone.replaceAll(' ', ''),
  person.iban,
  person.spacedIban,
];

let dataDir: string;
let database: Database;
let t: TestApp;
let open = false;
/** PostgreSQL: the test database's address (pg_dump reads it) and how to drop it. */
let postgres: { url: string; drop(): Promise<void> } | undefined;
/** The folder whose every file is searched: the embedded database's DATA_DIR, or the PostgreSQL cluster's. */
let searched: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'skanova-erasure-'));
  if (TEST_DB === 'pglite') {
    database = openDatabase({ pgliteDir: path.join(dataDir, 'db') });
    await migrate(database.sql);
    searched = dataDir;
  } else {
    postgres = await createTestDatabaseUrl();
    database = openDatabase({ url: postgres.url, poolSize: 20 });
    searched = inject('postgresDataDir');
  }
  // No mailer given and no SMTP_URL: e-mails are written to DATA_DIR/outbox as `.eml` files.
  t = await serveTestApp(database, testConfig({ DATA_DIR: dataDir }));
  open = true;
}, 120_000);

afterAll(async () => {
  if (open) {
    await t.close();
    await database.close();
  }
  await postgres?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('deleting an account', () => {
  it('leaves its personal data in no byte of the data folder nor of a backup taken afterwards', async () => {
    // Sign up with a bank account, then use the product.
    const signup = await callFn(
      t,
      'createAffiliate',
      signupPayload({
        email: person.email,
        firstName: person.firstName,
        lastName: person.lastName,
        phone: person.phone,
        paymentMethod: 'bank_transfer',
        paymentDetails: {
          bankName: 'BNP',
          bankIban: person.spacedIban,
          bic: 'BNPAFRPP',
          accountHolder: `${person.firstName} ${person.lastName}`,
        },
      }),
      undefined,
      '10.93.0.1',
    );
    expect(signup.status).toBe(200);
    const session = await signIn(t, person.email, 'correct horse battery', '10.93.0.2');
    expect(session.status).toBe(200);
    const cookie = session.cookie || cookieFrom(signup.headers['set-cookie']);
    const code = await callFn(t, 'generateReferralCode', { description: `Flyers of ${person.firstName}` }, cookie);
    expect(code.status).toBe(200);
    const ticket = await callFn(
      t,
      'submitContactForm',
      {
        name: `${person.firstName} ${person.lastName}`,
        email: person.email,
        subject: 'technical',
        message: `Please pay to ${person.spacedIban}, or call me on ${person.phone}.`,
        language: 'en',
      },
      undefined,
      '10.93.0.3',
    );
    expect(ticket.status).toBe(200);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL },
      remoteAddress: '10.93.0.4',
      payload: { email: person.email, redirectTo: '/affiliate/reset-password' },
    });
    expect(reset.statusCode).toBe(200);
    await deliverDueEmails(t.context);
    await outboxIdle(t.context);
    // The planner's statistics sample the columns (PostgreSQL's autovacuum analyses on its own).
    await database.sql.exec('ANALYZE');
    expect(filesHolding(searched, [person.email]).length).toBeGreaterThan(0);

    // Delete the account.
    const deleted = await callFn(t, 'deleteAffiliateAccount', { password: 'correct horse battery' }, cookie);
    expect(deleted.status).toBe(200);
    // The deletion's confirmation is sent at once, in the background: its row is written again when it
    // is sent, and a row written after the maintenance's rewrite waits for the next day's run (ADR 017).
    await outboxIdle(t.context);

    // The day's jobs: retention, the outbox (the deletion's confirmation goes, and is forgotten), the
    // storage maintenance last.
    t.clock.advance(DAY_MS);
    const outcomes = await runDueJobs(t.context);
    expect(outcomes).toMatchObject({ retention: 'done', 'storage-maintenance': 'done' });
    const { rows: runs } = await database.sql.query<{ details: unknown }>(
      "SELECT details FROM job_runs WHERE job = 'storage-maintenance'",
    );
    expect(runs.map((run) => (typeof run.details === 'string' ? JSON.parse(run.details) : run.details))).toEqual([
      {
        tablesRewritten: PERSONAL_TABLES.length,
        statisticsRewritten: true,
        walSwitches: expect.any(Number),
        walErased: true,
        skipped: '',
      },
    ]);
    await outboxIdle(t.context);

    expect(filesHolding(searched, NEEDLES)).toEqual([]);

    // A backup taken now holds none of it either, compressed or not.
    if (TEST_DB === 'pglite') {
      // The command's own path: with no server on the folder, it opens the database itself.
      await t.close();
      await database.close();
      open = false;
      const backupDir = mkdtempSync(path.join(tmpdir(), 'skanova-erasure-backup-'));
      try {
        const backup = await createBackup({ dataDir, out: backupDir });
        const bytes = readFileSync(backup.file);
        const tar = gunzipSync(bytes);
        expect(NEEDLES.filter((needle) => bytes.includes(needle) || tar.includes(needle))).toEqual([]);
      } finally {
        rmSync(backupDir, { recursive: true, force: true });
      }
    } else {
      // PostgreSQL's logical backup (docs/deployment.md, "Backups"), uncompressed so that its bytes are searched as written.
      const bin = path.dirname(realpathSync(path.join(findBinDir()!, 'pg_ctl')));
      const dump = execFileSync(path.join(bin, 'pg_dump'), ['--format=custom', '--compress=0', postgres!.url]);
      expect(NEEDLES.filter((needle) => dump.includes(needle))).toEqual([]);
    }
  }, 180_000);
});

describe.skipIf(TEST_DB !== 'postgres')('the storage maintenance on PostgreSQL without privileges', () => {
  it('does what the role may, and reports what it could not erase instead of failing', async () => {
    const role = `maintenance_${randomBytes(4).toString('hex')}`;
    await database.sql.query(`CREATE ROLE ${role} LOGIN`);
    const url = new URL(postgres!.url);
    url.username = role;
    const unprivileged = openDatabase({ url: url.toString(), poolSize: 2 });
    const warnings: unknown[] = [];
    try {
      const result = await runStorageMaintenance({
        database: unprivileged,
        log: { warn: (details: unknown) => warnings.push(details) } as never,
      });
      expect(result).toMatchObject({ tablesRewritten: 0, statisticsRewritten: false, walErased: false });
      expect(result.skipped).toMatch(/does not own the table/);
      expect(result.skipped).toMatch(/pg_statistic: .*superuser/);
      expect(result.skipped).toMatch(/CHECKPOINT/);
      expect(warnings).toHaveLength(1);
    } finally {
      await unprivileged.close();
      await database.sql.query(`DROP ROLE ${role}`);
    }
  });
});

describe.skipIf(TEST_DB !== 'postgres')('the storage maintenance and transactions in flight', () => {
  it('waits for a transaction begun before the deletion, whose snapshot would keep the deleted row', async () => {
    const address = `in-flight-${randomBytes(4).toString('hex')}@example.com`;
    const filed = await callFn(
      t,
      'submitContactForm',
      { name: 'In Flight', email: address, subject: 'technical', message: 'A question.', language: 'en' },
      undefined,
      '10.93.1.1',
    );
    expect(filed.status).toBe(200);
    // A request in flight: its snapshot, taken before the deletion, can still see the row.
    const reader = new pg.Client({ connectionString: postgres!.url });
    await reader.connect();
    try {
      await reader.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      await reader.query('SELECT 1');
      await database.sql.query('DELETE FROM support_tickets WHERE email = $1', [address]);
      await database.sql.query('DELETE FROM email_outbox WHERE reply_to = $1 OR to_address = $1', [address]);

      // Not waiting: the rewrite keeps the row that snapshot may see, and the job says so.
      const hasty = await runStorageMaintenance(t.context, { olderTransactionsWaitMs: 0 });
      expect(hasty.skipped).toMatch(/1 transactions open since before the run/);
      expect(filesHolding(searched, [address]).length).toBeGreaterThan(0);

      // Waiting: the request ends, then the rewrite drops the row.
      const patient = runStorageMaintenance(t.context, { olderTransactionsWaitMs: 30_000 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await reader.query('COMMIT');
      expect((await patient).skipped).toBe('');
      expect(filesHolding(searched, [address])).toEqual([]);
    } finally {
      await reader.end();
    }
  }, 120_000);
});
