import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGzip, gunzip } from 'node:zlib';
import type { SnapshotInfo } from '../pglite-snapshot.ts';
import { type TarEntry, TarFormatError, readTar, tarChunks } from './tar.ts';

// A backup of the embedded installation is one file, `skanova-backup-<UTC time>.tar.gz`:
//
//   manifest.json        what the backup holds, when it was taken, and a SHA-256 of every other file
//   database.tar         the PGlite data folder (DATA_DIR/db) as PGlite's own dumpDataDir() writes it
//   secrets/<name>.key   the secrets the server generated into DATA_DIR/secrets (when not set in the environment)
//   outbox/<file>.eml    the e-mails written to DATA_DIR/outbox when no SMTP_URL is set
//
// It is written to a temporary file beside its destination, flushed to disk, then renamed: a backup
// file that exists is complete. Reading it checks the manifest and every checksum before anything
// else is done with it.

export const BACKUP_FORMAT = 'skanova-backup';
export const BACKUP_FORMAT_VERSION = 1;
export const DATABASE_ENTRY = 'database.tar';
export const MANIFEST_ENTRY = 'manifest.json';
const SECRET_ENTRY = /^secrets\/[a-z0-9_]+\.key$/;
const OUTBOX_ENTRY = /^outbox\/\d+-[a-z0-9]+\.eml$/;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  /** When the database was copied (UTC, ISO 8601). */
  createdAt: string;
  /** A running server answered the snapshot, or the command opened the stopped folder itself. */
  source: 'running-server' | 'stopped-folder';
  database: {
    engine: 'pglite';
    pgliteVersion: string;
    postgresVersion: string;
    migrations: string[];
    tables: Record<string, number>;
  };
  files: { path: string; bytes: number; sha256: string }[];
}

export class BackupFileError extends Error {}

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** The file name of a backup taken at `at`: `skanova-backup-20250115T031500Z.tar.gz`. */
export function backupFileName(at: Date): string {
  return `skanova-backup-${at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '')}.tar.gz`;
}

/** Whether a path inside the archive is one a backup may hold (nothing else is ever written back). */
export function isAllowedEntry(name: string): boolean {
  return name === DATABASE_ENTRY || SECRET_ENTRY.test(name) || OUTBOX_ENTRY.test(name);
}

export interface BackupContent {
  info: SnapshotInfo;
  source: BackupManifest['source'];
  database: Uint8Array;
  /** Other files of DATA_DIR, by their path in the archive (`secrets/…`, `outbox/…`). */
  files: { name: string; data: Uint8Array; mtime?: Date }[];
}

export function buildManifest(content: BackupContent): BackupManifest {
  const entries = [{ name: DATABASE_ENTRY, data: content.database }, ...content.files];
  return {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    createdAt: content.info.takenAt,
    source: content.source,
    database: {
      engine: 'pglite',
      pgliteVersion: content.info.pgliteVersion,
      postgresVersion: content.info.postgresVersion,
      migrations: content.info.migrations,
      tables: content.info.tables,
    },
    files: entries.map((entry) => ({ path: entry.name, bytes: entry.data.length, sha256: sha256(entry.data) })),
  };
}

async function fsyncPath(target: string, flags: 'r' | 'r+'): Promise<void> {
  const handle = await open(target, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes the backup to `file` atomically (temporary file, fsync, rename, fsync of the folder), readable
 * by its owner only (it holds the secrets), with `<file>.sha256` beside it (`sha256sum -c` checks a
 * copy). Refuses to replace an existing file. Answers the manifest and the file's SHA-256.
 */
export async function writeBackupFile(
  file: string,
  content: BackupContent,
): Promise<{ manifest: BackupManifest; sha256: string; bytes: number }> {
  for (const entry of content.files) {
    if (!isAllowedEntry(entry.name)) throw new BackupFileError(`not a file a backup holds: ${entry.name}`);
  }
  if (existsSync(file)) throw new BackupFileError(`${file} exists already: a backup never replaces a file.`);
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const manifest = buildManifest(content);
  const entries: TarEntry[] = [
    { name: MANIFEST_ENTRY, data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) },
    { name: DATABASE_ENTRY, data: content.database },
    ...content.files,
  ];
  const temporary = path.join(dir, `.${path.basename(file)}.${randomBytes(4).toString('hex')}.partial`);
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    const gzip = createGzip({ level: 6 });
    gzip.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      bytes += chunk.length;
    });
    await pipeline(Readable.from(tarChunks(entries)), gzip, createWriteStream(temporary, { mode: 0o600 }));
    await fsyncPath(temporary, 'r+');
    if (existsSync(file)) throw new BackupFileError(`${file} exists already: a backup never replaces a file.`);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await fsyncPath(dir, 'r');
  const digest = hash.digest('hex');
  await writeFile(`${file}.sha256`, `${digest}  ${path.basename(file)}\n`, { mode: 0o600 });
  return { manifest, sha256: digest, bytes };
}

export interface BackupFile {
  manifest: BackupManifest;
  database: Uint8Array;
  files: { name: string; data: Uint8Array }[];
}

/** Reads and checks a backup file: a readable archive, a manifest of this format, every checksum right. */
export async function readBackupFile(file: string): Promise<BackupFile> {
  let compressed: Buffer;
  try {
    compressed = await readFile(file);
  } catch (error) {
    throw new BackupFileError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  let archive: Buffer;
  try {
    archive = await promisify(gunzip)(compressed);
  } catch (error) {
    throw new BackupFileError(
      `${file} is not a readable backup (${(error as Error).message}): the file is damaged, truncated or not a backup.`,
    );
  }
  let entries: TarEntry[];
  try {
    entries = readTar(archive);
  } catch (error) {
    if (error instanceof TarFormatError) throw new BackupFileError(`${file} is damaged: ${error.message}.`);
    throw error;
  }
  const manifestEntry = entries.find((entry) => entry.name === MANIFEST_ENTRY);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(Buffer.from(manifestEntry?.data ?? []).toString('utf8')) as BackupManifest;
  } catch {
    throw new BackupFileError(`${file} is not a backup of this product: it has no readable ${MANIFEST_ENTRY}.`);
  }
  if (manifest?.format !== BACKUP_FORMAT || !Array.isArray(manifest.files) || !manifest.database) {
    throw new BackupFileError(`${file} is not a backup of this product (${MANIFEST_ENTRY} is not ours).`);
  }
  if (manifest.formatVersion !== BACKUP_FORMAT_VERSION) {
    throw new BackupFileError(
      `${file} is a backup of format ${manifest.formatVersion}; this version reads format ${BACKUP_FORMAT_VERSION}: restore it with the version of the product that made it.`,
    );
  }
  const byName = new Map(entries.map((entry) => [entry.name, entry.data]));
  const listed = new Set(manifest.files.map((entry) => entry.path));
  for (const name of byName.keys()) {
    if (name !== MANIFEST_ENTRY && !listed.has(name)) {
      throw new BackupFileError(`${file} holds a file its manifest does not list (${name}): refused.`);
    }
  }
  for (const expected of manifest.files) {
    const data = byName.get(expected.path);
    if (!data) throw new BackupFileError(`${file} is incomplete: ${expected.path} is missing.`);
    if (!isAllowedEntry(expected.path))
      throw new BackupFileError(`${file} lists a file outside a backup: ${expected.path}.`);
    if (data.length !== expected.bytes || sha256(data) !== expected.sha256) {
      throw new BackupFileError(`${file} is damaged: the checksum of ${expected.path} does not match its manifest.`);
    }
  }
  const database = byName.get(DATABASE_ENTRY);
  if (!database) throw new BackupFileError(`${file} holds no database.`);
  return {
    manifest,
    database,
    files: manifest.files
      .filter((entry) => entry.path !== DATABASE_ENTRY)
      .map((entry) => ({ name: entry.path, data: byName.get(entry.path)! })),
  };
}
