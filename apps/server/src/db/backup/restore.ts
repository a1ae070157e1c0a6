import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { readMigrations } from '../migrate.ts';
import { describeDatabase, installedPgliteVersion } from '../pglite-snapshot.ts';
import { type BackupManifest, readBackupFile } from './archive.ts';
import { describeHolder, probeDataDir } from './control-channel.ts';

// `npm run restore -- <backup> --data-dir <folder>`: a backup back into a new data folder. It never
// overwrites anything: the folder must not exist or be empty (to replace an installation, stop its
// server and move its folder aside). The file is checked whole first (manifest, checksums, product
// and PGlite versions); the database is then loaded into a temporary folder beside the target,
// opened, and compared with the manifest (migrations, rows of every table); only then does the
// temporary folder become the target, by a rename. A restore that fails leaves nothing behind.

export class RestoreError extends Error {}

export interface RestoreResult {
  dataDir: string;
  manifest: BackupManifest;
  /** Secrets written into DATA_DIR/secrets. */
  secrets: string[];
  /** E-mail copies written into DATA_DIR/outbox. */
  outbox: number;
  /** Migrations this version of the product knows that the backup has not applied (applied at the server's start). */
  pendingMigrations: string[];
}

const major = (version: string) => version.split(/[.\s]/)[0] ?? version;

/** PostgreSQL's version inside the installed PGlite (started in memory: only when the backup's PGlite differs). */
async function installedPostgresVersion(): Promise<string> {
  const probe = new PGlite();
  try {
    const { rows } = await probe.query<{ server_version: string }>('SHOW server_version');
    return rows[0]?.server_version ?? 'unknown';
  } finally {
    await probe.close();
  }
}

function isEmptyFolder(dir: string): boolean {
  return statSync(dir).isDirectory() && readdirSync(dir).length === 0;
}

export async function restoreBackup(options: { file: string; dataDir: string }): Promise<RestoreResult> {
  const file = path.resolve(options.file);
  const dataDir = path.resolve(options.dataDir);

  // The target first: nothing is read, unpacked or written for a folder in use or not empty.
  if (existsSync(dataDir)) {
    const holder = await probeDataDir(dataDir);
    if (holder) {
      throw new RestoreError(
        `${dataDir} is in use by ${describeHolder(holder)}: a restore never overwrites a data folder. Stop the server, move the folder aside, and restore into a new one.`,
      );
    }
    if (!isEmptyFolder(dataDir)) {
      throw new RestoreError(
        `${dataDir} is not empty: a restore never overwrites a data folder. Restore into a new folder (or move this one aside first).`,
      );
    }
  }

  const backup = await readBackupFile(file);
  const { manifest } = backup;

  const known = readMigrations().map((migration) => migration.name);
  const unknown = manifest.database.migrations.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new RestoreError(
      `${file} was made by a newer version of the product (migrations ${unknown.join(', ')} are unknown here): restore it with that version or a later one.`,
    );
  }
  const installedPglite = installedPgliteVersion();
  if (manifest.database.pgliteVersion !== installedPglite) {
    const installedPostgres = await installedPostgresVersion();
    if (major(installedPostgres) !== major(manifest.database.postgresVersion)) {
      throw new RestoreError(
        `${file} holds a PostgreSQL ${manifest.database.postgresVersion} database (PGlite ${manifest.database.pgliteVersion}); this installation runs PostgreSQL ${installedPostgres} (PGlite ${installedPglite}), which cannot open it. Restore it with the product version that made it, then move the data with pg_dump (docs/deployment.md).`,
      );
    }
  }

  const parent = path.dirname(dataDir);
  await mkdir(parent, { recursive: true });
  const staging = path.join(parent, `.${path.basename(dataDir)}.restore-${randomBytes(4).toString('hex')}`);
  await mkdir(staging, { mode: 0o700 });
  try {
    const database = new PGlite(path.join(staging, 'db'), {
      loadDataDir: new Blob([backup.database], { type: 'application/x-tar' }),
    });
    try {
      await database.waitReady;
      const found = await describeDatabase((text) => database.query(text));
      if (found.migrations.join(',') !== manifest.database.migrations.join(',')) {
        throw new RestoreError('the restored database does not hold the migrations its manifest lists');
      }
      for (const [table, rows] of Object.entries(manifest.database.tables)) {
        if (found.tables[table] !== rows) {
          throw new RestoreError(
            `the restored table ${table} holds ${found.tables[table] ?? 'no'} rows; the backup's manifest says ${rows}`,
          );
        }
      }
    } finally {
      await database.close();
    }

    const secrets: string[] = [];
    let outbox = 0;
    for (const entry of backup.files) {
      const target = path.join(staging, ...entry.name.split('/'));
      const secret = entry.name.startsWith('secrets/');
      await mkdir(path.dirname(target), { recursive: true, mode: secret ? 0o700 : 0o755 });
      await writeFile(target, entry.data, { mode: secret ? 0o600 : 0o644, flag: 'wx' });
      if (secret) secrets.push(path.basename(entry.name, '.key').toUpperCase());
      else outbox += 1;
    }
    if (existsSync(path.join(staging, 'secrets'))) await chmod(path.join(staging, 'secrets'), 0o700);

    // An empty target folder is replaced by the rename; one that gained files meanwhile is not (ENOTEMPTY).
    try {
      await rename(staging, dataDir);
    } catch (error) {
      throw new RestoreError(
        `${dataDir} could not be created (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): did something start writing there during the restore?`,
      );
    }
    return {
      dataDir,
      manifest,
      secrets,
      outbox,
      pendingMigrations: known.filter((name) => !manifest.database.migrations.includes(name)),
    };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (error instanceof RestoreError) throw error;
    throw new RestoreError(`The database in ${file} could not be restored: ${(error as Error).message}`);
  }
}
