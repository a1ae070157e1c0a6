import { gunzipSync, gzipSync } from 'node:zlib';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runBackup } from '../src/cli/backup.ts';
import { runRestore } from '../src/cli/restore.ts';
import { loadConfig } from '../src/config.ts';
import { type BackupManifest, MANIFEST_ENTRY } from '../src/db/backup/archive.ts';
import { DataDirInUseError, claimDataDir } from '../src/db/backup/control-channel.ts';
import { readTar, tarChunks } from '../src/db/backup/tar.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { TEST_PUBLIC_URL, memoryMailer, serveTestApp } from './helpers/app.ts';
import {
  codeId,
  cookieFrom,
  createTestAffiliate,
  insertConversion,
  insertPayout,
  signupPayload,
  type TestAffiliate,
} from './helpers/affiliates.ts';
import { TEST_DB } from './helpers/database.ts';
import { createTestOperator, type TestOperator } from './helpers/operators.ts';
import { type ServerProcess, fakeSiteBuild, startServer, until, waitUntilServing } from './helpers/server-process.ts';
import { createVisit } from './helpers/visits.ts';
import { freePort } from './postgres-cluster.ts';

// Backups of the embedded database (docs/deployment.md#backups): a server runs on PGlite with affiliates, codes,
// conversions and payouts; `npm run backup`'s code takes a backup while visits are being recorded;
// `npm run restore`'s code restores it into a fresh folder; a second server on that folder serves the
// same affiliates, codes, conversions, payouts and payment details, recognises the sessions opened
// before the backup (the generated secrets came with it), and holds every visit answered before the
// backup began. Then what restore refuses: a folder in use or not empty, a damaged or foreign file, a
// backup of a newer product version.
//
// Embedded database only: with PostgreSQL, backups are pg_dump's (postgres-dump.test.ts).

const DAY_MS = 86_400_000;
const BANK = {
  bankName: 'Demo Bank',
  bankIban: 'DE89 3704 0044 0532 0130 00',
  bic: 'COBADEFFXXX',
  accountHolder: 'Grace Hopper',
};

interface Running {
  url: string;
  process: ServerProcess;
}

async function call(server: Running, name: string, data: unknown, cookie?: string) {
  const response = await fetch(`${server.url}/api/fn/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({ data }),
  });
  const body = (await response.json()) as { result?: any; error?: any };
  return { status: response.status, body, headers: response.headers };
}

/** The answers a restore must reproduce: the console's lists and each affiliate's own pages. */
async function programmeSeenBy(
  server: Running,
  operator: TestOperator,
  affiliates: TestAffiliate[],
): Promise<Record<string, any>> {
  const answer = async (name: string, data: unknown, cookie: string) => {
    const response = await call(server, name, data, cookie);
    expect(response.status, `${name}: ${JSON.stringify(response.body)}`).toBe(200);
    // Links carry the server's own address, which differs between the two servers.
    return JSON.parse(JSON.stringify(response.body.result).replaceAll(server.url, 'PUBLIC_URL'));
  };
  return {
    affiliates: await answer('adminListAffiliates', {}, operator.cookie),
    conversions: await answer('adminListConversions', {}, operator.cookie),
    payouts: await answer('adminListPayouts', {}, operator.cookie),
    ...Object.fromEntries(
      await Promise.all(
        affiliates.map(async (affiliate, index) => [
          `affiliate${index}`,
          {
            stats: await answer('getAffiliateStats', null, affiliate.cookie),
            payouts: await answer('getAffiliatePayouts', null, affiliate.cookie),
            paymentMethod: await answer('getAffiliatePaymentMethod', null, affiliate.cookie),
          },
        ]),
      ),
    ),
  };
}

describe.skipIf(TEST_DB === 'postgres')('backup and restore of the embedded database', () => {
  let dir: string;
  let dataDir: string;
  let site: string;
  let operator: TestOperator;
  const affiliates: TestAffiliate[] = [];
  const servers: ServerProcess[] = [];
  let backupFile: string;

  async function start(folder: string, env: Record<string, string> = {}): Promise<Running> {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const server = startServer({
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: folder,
      WEB_BUILD_DIR: site,
      RATE_LIMIT_CLICKS_DISABLED: 'true',
      ...env,
    });
    servers.push(server);
    await waitUntilServing(url, server, 90_000);
    return { url, process: server };
  }

  async function stop(server: Running) {
    server.process.child.kill('SIGTERM');
    expect(await server.process.exited, server.process.output()).toBe(0);
  }

  beforeAll(async () => {
    // The servers (which inherit this environment) generate their secrets into the data folder, so
    // the backup must carry them; mail goes to DATA_DIR/outbox.
    for (const name of ['IP_HASH_SECRET', 'AUTH_SECRET', 'DATA_ENCRYPTION_KEY', 'DATABASE_URL', 'SMTP_URL']) {
      vi.stubEnv(name, undefined);
    }
    dir = mkdtempSync(path.join(tmpdir(), 'skanova-backup-'));
    dataDir = path.join(dir, 'data');
    site = path.join(dir, 'site');
    fakeSiteBuild(site);

    // The programme, made through the product's functions on the data folder before its server starts.
    const database = openDatabase({ pgliteDir: path.join(dataDir, 'db') });
    await migrate(database.sql);
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      PUBLIC_URL: TEST_PUBLIC_URL,
      DATA_DIR: dataDir,
    });
    const t = await serveTestApp(database, config, { mailer: memoryMailer().mailer, logger: false });
    try {
      operator = await createTestOperator(t);
      affiliates.push(
        await createTestAffiliate(t, {
          paymentMethod: 'paypal',
          paymentDetails: { paypalEmail: 'ada@paypal.example' },
        }),
        await createTestAffiliate(t, { paymentMethod: 'bank_transfer', paymentDetails: BANK, firstName: 'Grace' }),
      );
      const [ada, grace] = affiliates as [TestAffiliate, TestAffiliate];
      const codes: string[] = [];
      for (const affiliate of [ada, ada, grace]) {
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/fn/generateReferralCode',
          headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL, cookie: affiliate.cookie },
          payload: JSON.stringify({ data: { description: 'Instagram' } }),
        });
        expect(response.statusCode, response.body).toBe(200);
        codes.push((response.json() as { result: { code: string } }).result.code);
      }
      const [adaCode, , graceCode] = await Promise.all(codes.map((code) => codeId(t, code)));
      const paid = await insertPayout(t, ada.affiliateId, {
        amountCents: 2400,
        status: 'paid',
        periodStart: '2025-01-01',
        periodEnd: '2025-01-31',
        scheduledFor: '2025-02-15',
        paidAt: new Date(Date.UTC(2025, 1, 16)),
      });
      await insertPayout(t, grace.affiliateId, {
        amountCents: 2200,
        status: 'sent',
        method: 'bank_transfer',
        periodStart: '2025-01-01',
        periodEnd: '2025-01-31',
        scheduledFor: '2025-02-15',
      });
      const earlier = new Date(t.clock.now.getTime() - 60 * DAY_MS);
      for (let i = 0; i < 12; i++) {
        await insertConversion(t, ada.affiliateId, {
          codeId: adaCode,
          status: 'paid',
          payoutId: paid,
          occurredAt: earlier,
          approvedAt: earlier,
        });
      }
      await insertConversion(t, ada.affiliateId, { codeId: adaCode, status: 'pending' });
      await insertConversion(t, grace.affiliateId, { codeId: graceCode, status: 'approved', approvedAt: earlier });
      await insertConversion(t, grace.affiliateId, { codeId: graceCode, status: 'reversed' });
    } finally {
      await t.close();
      await database.close();
    }
  }, 120_000);

  afterAll(async () => {
    vi.unstubAllEnvs();
    for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('backs up a running server while visits are recorded; the restored copy serves the same programme', async () => {
    const original = await start(dataDir, { JOBS_ENABLED: 'true', JOBS_TICK_MS: '200' });

    // One more affiliate signs up through the running server: the welcome e-mail is written to
    // DATA_DIR/outbox (no SMTP_URL), which the backup keeps.
    const signup = await call(original, 'createAffiliate', signupPayload());
    expect(signup.status, JSON.stringify(signup.body)).toBe(200);
    affiliates.push({
      email: '',
      password: '',
      affiliateId: signup.body.result.affiliateId,
      cookie: cookieFrom(signup.headers.getSetCookie()),
    });
    const outbox = path.join(dataDir, 'outbox');
    await until(async () => existsSync(outbox) && readdirSync(outbox).length > 0, 'the welcome e-mail');

    // A second process never opens the folder while the server holds it.
    await expect(claimDataDir(dataDir, 'backup')).rejects.toBeInstanceOf(DataDirInUseError);

    // Visits keep arriving (four at a time) before, during and after the backup.
    const answered: { trackingId: string; at: number }[] = [];
    let visiting = true;
    const visitor = async (lane: number) => {
      for (let n = 0; visiting; n++) {
        const response = await call(
          original,
          'storePreInstallData',
          createVisit({ code: null, sessionId: `lane${lane}-${n}-session-id` }),
        );
        expect(response.status).toBe(200);
        answered.push({ trackingId: response.body.result.trackingId, at: Date.now() });
      }
    };
    const lanes = [0, 1, 2, 3].map(visitor);
    await until(async () => answered.length >= 20, 'the first visits');

    const backupStarted = Date.now();
    const output = await runBackup(['--out', path.join(dir, 'backups')], { DATA_DIR: dataDir });
    const backupEnded = Date.now();
    await until(async () => answered.some((visit) => visit.at > backupEnded + 200), 'visits after the backup');
    visiting = false;
    await Promise.all(lanes);

    expect(output).toMatch(/from the running server \(pid \d+\)/);
    expect(original.process.output()).toContain('backup snapshot taken');
    backupFile = readdirSync(path.join(dir, 'backups'))
      .filter((name) => name.endsWith('.tar.gz'))
      .map((name) => path.join(dir, 'backups', name))[0]!;
    expect(path.basename(backupFile)).toMatch(/^skanova-backup-\d{8}T\d{6}Z\.tar\.gz$/);
    expect(readFileSync(`${backupFile}.sha256`, 'utf8')).toContain(path.basename(backupFile));

    const before = await programmeSeenBy(original, operator, affiliates);
    expect([before.affiliates.total, before.conversions.total, before.payouts.payouts.length]).toEqual([3, 15, 2]);
    await stop(original);

    // Into an empty folder (one that does not exist yet is made).
    const restored = path.join(dir, 'restored');
    mkdirSync(restored);
    const report = await runRestore([backupFile, '--data-dir', restored]);
    expect(report).toContain('AUTH_SECRET, DATA_ENCRYPTION_KEY, IP_HASH_SECRET');

    // Files of the data folder: the secrets identical, the e-mail copies of the moment of the backup.
    for (const name of readdirSync(path.join(dataDir, 'secrets'))) {
      expect(readFileSync(path.join(restored, 'secrets', name))).toEqual(
        readFileSync(path.join(dataDir, 'secrets', name)),
      );
    }
    for (const name of readdirSync(path.join(restored, 'outbox'))) {
      expect(readFileSync(path.join(restored, 'outbox', name))).toEqual(readFileSync(path.join(outbox, name)));
    }

    // Every visit answered before the backup began is in the copy; none answered after it ended is.
    const copy = openDatabase({ pgliteDir: path.join(restored, 'db') });
    try {
      const { rows } = await copy.sql.query<{ tracking_id: string }>('SELECT tracking_id FROM clicks');
      const stored = new Set(rows.map((row) => row.tracking_id));
      const answeredBefore = answered.filter((visit) => visit.at < backupStarted);
      expect(answeredBefore.length).toBeGreaterThan(0);
      for (const visit of answeredBefore) expect(stored.has(visit.trackingId)).toBe(true);
      for (const visit of answered.filter((v) => v.at > backupEnded)) expect(stored.has(visit.trackingId)).toBe(false);
      expect(stored.size).toBeLessThan(answered.length);
    } finally {
      await copy.close();
    }

    const copyServer = await start(restored, { JOBS_ENABLED: 'false' });
    // Same answers, to the sessions opened before the backup (signed with the restored AUTH_SECRET),
    // with the bank details decrypted by the restored DATA_ENCRYPTION_KEY.
    expect(await programmeSeenBy(copyServer, operator, affiliates)).toEqual(before);
    expect(before.affiliate1.paymentMethod.paymentMethod).toMatchObject({ type: 'bank_transfer', bic: BANK.bic });
    // Restore never touches the folder of a running server.
    await expect(runRestore([backupFile, '--data-dir', restored])).rejects.toThrow(
      /in use by a running server \(pid \d+\)/,
    );
    await stop(copyServer);
  }, 180_000);

  it('refuses a folder not empty, a damaged or foreign file, and a backup of a newer version', async () => {
    const restoreInto = (file: string, folder = path.join(dir, `target-${Math.random().toString(36).slice(2)}`)) =>
      runRestore([file, '--data-dir', folder]);

    // A folder that holds something (the restored installation).
    await expect(restoreInto(backupFile, path.join(dir, 'restored'))).rejects.toThrow(/is not empty/);

    // Damaged: truncated, or one byte of the database changed under a valid archive.
    const bytes = readFileSync(backupFile);
    const truncated = path.join(dir, 'truncated.tar.gz');
    writeFileSync(truncated, bytes.subarray(0, bytes.length - 1000));
    await expect(restoreInto(truncated)).rejects.toThrow(/not a readable backup .*damaged, truncated or not a backup/);

    const entries = readTar(gunzipSync(bytes));
    const repack = (name: string, change: (entry: (typeof entries)[number]) => Uint8Array) => {
      const file = path.join(dir, name);
      const changed = entries.map((entry) => ({ ...entry, data: change(entry) }));
      writeFileSync(file, gzipSync(Buffer.concat([...tarChunks(changed)]), { level: 1 }));
      return file;
    };
    const flipped = repack('flipped.tar.gz', (entry) => {
      if (entry.name !== 'database.tar') return entry.data;
      const copy = Buffer.from(entry.data);
      copy[copy.length >> 1] = (copy[copy.length >> 1] ?? 0) ^ 0xff;
      return copy;
    });
    await expect(restoreInto(flipped)).rejects.toThrow(/damaged: the checksum of database.tar does not match/);

    // Not a backup at all.
    const foreign = path.join(dir, 'foreign.tar.gz');
    writeFileSync(
      foreign,
      gzipSync(Buffer.concat([...tarChunks([{ name: 'notes.txt', data: Buffer.from('hello') }])])),
    );
    await expect(restoreInto(foreign)).rejects.toThrow(/not a backup of this product/);

    // Made by a newer version of the product: a migration this one does not know.
    const newer = repack('newer.tar.gz', (entry) => {
      if (entry.name !== MANIFEST_ENTRY) return entry.data;
      const manifest = JSON.parse(Buffer.from(entry.data).toString('utf8')) as BackupManifest;
      manifest.database.migrations.push('9999_from_the_future');
      return Buffer.from(JSON.stringify(manifest));
    });
    await expect(restoreInto(newer)).rejects.toThrow(/newer version of the product \(migrations 9999_from_the_future/);

    // Nothing was left behind by the refused restores.
    expect(readdirSync(dir).filter((name) => name.startsWith('target-') || name.includes('.restore-'))).toEqual([]);
  }, 120_000);
});
