import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ADMIN_PAGE } from '@skanova/shared/admin/pages';
import { buildApp } from '../app.ts';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { DataDirInUseError, claimDataDir } from '../db/backup/control-channel.ts';
import { openDatabase } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { type OperatorSetup, OperatorInputError, createOperator } from '../features/admin/operators.ts';

// `npm run admin:create -- <email>`: makes the account an operator (creating it if needed) and
// prints a one-time link to choose its password. Same configuration and database as the server;
// with the embedded database, stop the server first (only one process may open it: the command
// claims the data folder, and is refused while a server holds it).

const USAGE = 'Usage: npm run admin:create -- <email>';

export function describeSetup(setup: OperatorSetup, publicUrl: string): string {
  return [
    setup.created ? `Created the operator account ${setup.email}.` : `${setup.email} is now an operator.`,
    ...(setup.unbanned ? ['The account was disabled: it is enabled again.'] : []),
    '',
    `Choose a password (one use, until ${setup.expiresAt.toISOString()}):`,
    `  ${setup.setPasswordUrl}`,
    '',
    `Then sign in at ${publicUrl}${ADMIN_PAGE}`,
  ].join('\n');
}

export async function runAdminCreate(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const email = args.find((arg) => !arg.startsWith('-'));
  if (!email || args.length !== 1) throw new OperatorInputError(USAGE);
  // A one-off command: the scheduled jobs stay with the server.
  const config = loadConfig({ ...env, JOBS_ENABLED: 'false' });
  const claim = config.DATABASE_URL ? null : await claimDataDir(config.DATA_DIR, 'admin:create');
  try {
    return await createWith(config, email);
  } finally {
    await claim?.close();
  }
}

async function createWith(config: Config, email: string): Promise<string> {
  const database = openDatabase({ url: config.DATABASE_URL, pgliteDir: path.resolve(config.DATA_DIR, 'db') });
  try {
    await migrate(database.sql);
    const { app, context } = await buildApp({ config, database, serveSite: false, logger: false });
    try {
      return describeSetup(await createOperator(context, email), config.publicUrl);
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runAdminCreate(process.argv.slice(2)).then(
    (output) => {
      console.log(output);
    },
    (error: unknown) => {
      console.error(
        error instanceof ConfigError || error instanceof OperatorInputError || error instanceof DataDirInUseError
          ? error.message
          : error,
      );
      process.exitCode = 1;
    },
  );
}
