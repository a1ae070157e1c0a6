import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { RestoreError, type RestoreResult, restoreBackup } from '../db/backup/restore.ts';
import { UsageError, isOperatorError } from './backup.ts';

// `npm run restore -- <backup.tar.gz> --data-dir <new folder>`: a backup of `npm run backup` into a new
// data folder, checked before and after (db/backup/restore.ts). Never overwrites a folder.

const USAGE = 'Usage: npm run restore -- <backup.tar.gz> --data-dir <new or empty folder>';

export function describeRestore(file: string, result: RestoreResult): string {
  const { manifest } = result;
  const rows = Object.values(manifest.database.tables).reduce((sum, n) => sum + n, 0);
  return [
    `Restored ${file} into ${result.dataDir}`,
    `  Taken ${manifest.createdAt}; PGlite ${manifest.database.pgliteVersion}; ${manifest.database.migrations.length} migrations; ${rows} rows in ${Object.keys(manifest.database.tables).length} tables, each count checked`,
    `  Secrets: ${result.secrets.length > 0 ? result.secrets.join(', ') : 'none in the backup'}; ${result.outbox} outbox e-mail${result.outbox === 1 ? '' : 's'}`,
    ...(result.secrets.length === 0
      ? [
          'The backup holds no generated secret: start the server with the IP_HASH_SECRET, AUTH_SECRET and DATA_ENCRYPTION_KEY of the installation it came from.',
        ]
      : []),
    ...(result.pendingMigrations.length > 0
      ? [
          `This version of the product has ${result.pendingMigrations.length} migration(s) the backup has not: the server applies them when it starts.`,
        ]
      : []),
    `Start the server on it: DATA_DIR=${result.dataDir} npm run serve`,
  ].join('\n');
}

export async function runRestore(args: readonly string[]): Promise<string> {
  let parsed: { values: { 'data-dir'?: string | undefined }; positionals: string[] };
  try {
    parsed = parseArgs({
      args: [...args],
      options: { 'data-dir': { type: 'string' } },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
  const [file, ...rest] = parsed.positionals;
  const dataDir = parsed.values['data-dir'];
  if (!file || rest.length > 0 || !dataDir) throw new UsageError(USAGE);
  return describeRestore(file, await restoreBackup({ file, dataDir }));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runRestore(process.argv.slice(2)).then(
    (output) => console.log(output),
    (error: unknown) => {
      console.error(isOperatorError(error) || error instanceof RestoreError ? error.message : error);
      process.exitCode = 1;
    },
  );
}
