import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { BackupFileError } from '../db/backup/archive.ts';
import { BACKUP_KEEP_DAYS, BackupError, type BackupResult, createBackup } from '../db/backup/backup.ts';
import { ControlChannelError, DataDirInUseError } from '../db/backup/control-channel.ts';

// `npm run backup -- [--out <folder or file.tar.gz>] [--data-dir <folder>] [--keep-days <n>]`: a consistent
// backup of the embedded installation (DATA_DIR), while its server runs or not. Default destination:
// ./backups/. Backups of the destination's folder older than the kept days (at most BACKUP_KEEP_DAYS,
// docs/decisions/017-erasure-in-the-files.md) are removed.

const USAGE = 'Usage: npm run backup -- [--out <folder or file.tar.gz>] [--data-dir <folder>] [--keep-days <1–28>]';

export class UsageError extends Error {}

/** Bytes for people: 1.4 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function describeBackup(result: BackupResult): string {
  const { manifest } = result;
  const rows = Object.values(manifest.database.tables).reduce((sum, n) => sum + n, 0);
  const secrets = manifest.files.filter((file) => file.path.startsWith('secrets/')).length;
  const emails = manifest.files.filter((file) => file.path.startsWith('outbox/')).length;
  return [
    `Backup written: ${result.file} (${formatBytes(result.bytes)})`,
    `  SHA-256 ${result.sha256} (also in ${path.basename(result.file)}.sha256)`,
    `  Taken ${manifest.createdAt} ${
      manifest.source === 'running-server'
        ? `from the running server${result.serverPid ? ` (pid ${result.serverPid})` : ''}; its writes waited ${result.heldMs} ms`
        : 'from the stopped data folder'
    }`,
    `  Database: PGlite ${manifest.database.pgliteVersion} (PostgreSQL ${manifest.database.postgresVersion}), ${manifest.database.migrations.length} migrations, ${rows} rows in ${Object.keys(manifest.database.tables).length} tables`,
    `  Also: ${secrets} generated secret${secrets === 1 ? '' : 's'}, ${emails} outbox e-mail${emails === 1 ? '' : 's'}`,
    ...(result.expired.length > 0
      ? [
          `  Removed ${result.expired.length} expired file${result.expired.length === 1 ? '' : 's'}: ${result.expired.join(', ')}`,
        ]
      : []),
    ...(secrets > 0
      ? ['The file holds the installation’s secrets: keep it where only its operators can read it.']
      : [
          'No generated secret in DATA_DIR: keep IP_HASH_SECRET, AUTH_SECRET and DATA_ENCRYPTION_KEY with your configuration.',
        ]),
  ].join('\n');
}

export async function runBackup(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  let values: { out?: string | undefined; 'data-dir'?: string | undefined; 'keep-days'?: string | undefined };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: { out: { type: 'string' }, 'data-dir': { type: 'string' }, 'keep-days': { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
  const keepDays = values['keep-days'] === undefined ? BACKUP_KEEP_DAYS : Number(values['keep-days']);
  if (!Number.isInteger(keepDays) || keepDays < 1 || keepDays > BACKUP_KEEP_DAYS) {
    throw new UsageError(
      `--keep-days must be a whole number from 1 to ${BACKUP_KEEP_DAYS}: a deleted account must leave the last backup within the erasure window (docs/decisions/017-erasure-in-the-files.md).\n${USAGE}`,
    );
  }
  const config = loadConfig(env);
  if (config.DATABASE_URL) {
    throw new UsageError(
      'This installation runs on PostgreSQL (DATABASE_URL): back it up with pg_dump, or with a base backup and WAL archiving for point-in-time recovery (docs/deployment.md, "Backups").',
    );
  }
  return describeBackup(
    await createBackup({ dataDir: values['data-dir'] ?? config.DATA_DIR, out: values.out, keepDays }),
  );
}

/** Errors whose message is the whole story (no stack trace for the operator). */
export function isOperatorError(error: unknown): error is Error {
  return [ConfigError, UsageError, BackupError, BackupFileError, DataDirInUseError, ControlChannelError].some(
    (type) => error instanceof type,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runBackup(process.argv.slice(2)).then(
    (output) => console.log(output),
    (error: unknown) => {
      console.error(isOperatorError(error) ? error.message : error);
      process.exitCode = 1;
    },
  );
}
