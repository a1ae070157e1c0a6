import { existsSync } from 'node:fs';
import { readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { openDatabase } from '../client.ts';
import type { DatabaseSnapshot } from '../pglite-snapshot.ts';
import { type BackupContent, type BackupManifest, backupFileName, writeBackupFile } from './archive.ts';
import { DataDirInUseError, claimDataDir, requestSnapshot } from './control-channel.ts';

// `npm run backup`: a consistent copy of the embedded installation while it serves. With a server
// running on DATA_DIR, the command asks it for a snapshot over the data folder's control socket
// (control-channel.ts); with none, it claims the folder (a server starting meanwhile is refused) and
// opens the database itself. Beside the database it keeps what else in DATA_DIR the data needs:
// the generated secrets (without the encryption key, stored bank details cannot be read; without
// the hashing key, visitors are counted again and IP matches are lost) and the outbox's `.eml`
// copies (the e-mails "sent" when no SMTP server is configured, kept seven days like the outbox rows
// the database holds).

export class BackupError extends Error {}

/** Secrets the server generates into DATA_DIR/secrets (lib/secrets.ts) and the outbox's copies (lib/mailer.ts). */
const SECRET_FILE = /^[a-z0-9_]+\.key$/;
const OUTBOX_FILE = /^\d+-[a-z0-9]+\.eml$/;

export interface BackupResult {
  file: string;
  /** Expired backups removed from the destination's folder. */
  expired: string[];
  sha256: string;
  bytes: number;
  manifest: BackupManifest;
  /** How long the database's writes waited for the copy, in milliseconds. */
  heldMs: number;
  /** The server's pid when a running server took the snapshot. */
  serverPid: number | null;
}

/** The files of `folder` whose names match, read whole; a file removed meanwhile (outbox retention) is skipped. */
async function collect(folder: string, pattern: RegExp, prefix: string): Promise<BackupContent['files']> {
  let names: string[];
  try {
    names = (await readdir(folder)).filter((name) => pattern.test(name)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files: BackupContent['files'] = [];
  for (const name of names) {
    try {
      files.push({ name: `${prefix}/${name}`, data: await readFile(path.join(folder, name)) });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return files;
}

async function snapshotStoppedFolder(dataDir: string): Promise<DatabaseSnapshot> {
  const claim = await claimDataDir(dataDir, 'backup');
  try {
    const database = openDatabase({ pgliteDir: path.join(dataDir, 'db') });
    try {
      return await database.snapshot!();
    } finally {
      await database.close();
    }
  } finally {
    await claim.close();
  }
}

/**
 * How long a backup is kept (docs/decisions/017-erasure-in-the-files.md): an account deleted today is
 * out of the live database's files within a day (the storage maintenance), and out of the last backup
 * that holds it once that backup expires — 1 + 28 days, within the 30 days of ADR 007 ("Retention"),
 * with a day to spare for a late job or backup. Each backup written removes its folder's expired ones.
 */
export const BACKUP_KEEP_DAYS = 28;

/** A backup's file name (`backupFileName`), or its checksum file's: the time it was taken. */
const BACKUP_NAME = /^skanova-backup-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z\.tar\.gz(\.sha256)?$/;

/**
 * Removes the backups of `folder` (and their checksum files) taken more than `keepDays` before `now`,
 * by the time their names carry; answers the names removed. Other files are left alone.
 */
export async function pruneExpiredBackups(folder: string, keepDays: number, now: Date): Promise<string[]> {
  const cutoff = now.getTime() - keepDays * 24 * 60 * 60 * 1000;
  const removed: string[] = [];
  for (const name of await readdir(folder)) {
    const parts = BACKUP_NAME.exec(name);
    if (!parts) continue;
    const [, year, month, day, hour, minute, second] = parts.map(Number) as number[];
    const takenAt = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
    if (takenAt >= cutoff) continue;
    await rm(path.join(folder, name), { force: true });
    removed.push(name);
  }
  return removed;
}

/** Where the backup goes: `out` names a `.tar.gz` file, or a folder (default `./backups`) that receives a dated file. */
export function backupDestination(out: string | undefined, takenAt: Date): string {
  const target = path.resolve(out ?? 'backups');
  return target.endsWith('.tar.gz') ? target : path.join(target, backupFileName(takenAt));
}

export async function createBackup(options: {
  dataDir: string;
  out?: string | undefined;
  /** Days a backup of the destination's folder is kept (default BACKUP_KEEP_DAYS). */
  keepDays?: number;
}): Promise<BackupResult> {
  const dataDir = path.resolve(options.dataDir);
  if (!existsSync(path.join(dataDir, 'db', 'PG_VERSION'))) {
    throw new BackupError(
      `There is no embedded database in ${path.join(dataDir, 'db')}: nothing to back up. (With DATABASE_URL, back up PostgreSQL with pg_dump: see docs/deployment.md.)`,
    );
  }
  let source: BackupManifest['source'] = 'running-server';
  let served = await requestSnapshot(dataDir);
  let snapshot: DatabaseSnapshot;
  if (served) {
    snapshot = served;
  } else {
    try {
      snapshot = await snapshotStoppedFolder(dataDir);
      source = 'stopped-folder';
    } catch (error) {
      // A server started between the two looks: ask it.
      if (!(error instanceof DataDirInUseError)) throw error;
      served = await requestSnapshot(dataDir);
      if (!served) throw error;
      snapshot = served;
    }
  }
  const files = [
    ...(await collect(path.join(dataDir, 'secrets'), SECRET_FILE, 'secrets')),
    ...(await collect(path.join(dataDir, 'outbox'), OUTBOX_FILE, 'outbox')),
  ];
  const file = backupDestination(options.out, new Date(snapshot.info.takenAt));
  const written = await writeBackupFile(file, { info: snapshot.info, source, database: snapshot.tarball, files });
  const expired = await pruneExpiredBackups(path.dirname(file), options.keepDays ?? BACKUP_KEEP_DAYS, new Date());
  return { file, expired, ...written, heldMs: snapshot.info.heldMs, serverPid: served?.pid ?? null };
}
