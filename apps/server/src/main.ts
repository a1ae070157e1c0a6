import path from 'node:path';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirInUseError, claimDataDir } from './db/backup/control-channel.ts';
import { openDatabase } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { outboxIdle } from './email/outbox-worker.ts';
import { type Scheduler, startScheduler } from './jobs/scheduler.ts';

async function main() {
  const config = loadConfig();
  // The embedded database belongs to one process: claim its folder before opening it (refused while
  // another server, backup or restore holds it); the claim's socket serves `npm run backup`.
  const dataDirClaim = config.DATABASE_URL ? null : await claimDataDir(config.DATA_DIR, 'server');
  const database = openDatabase({ url: config.DATABASE_URL, pgliteDir: path.resolve(config.DATA_DIR, 'db') });
  const applied = await migrate(database.sql);
  const { app, context } = await buildApp({ config, database });
  if (applied.length > 0) app.log.info({ applied }, 'migrations applied');
  if (dataDirClaim) {
    dataDirClaim.serveSnapshots(database.snapshot!, ({ heldMs, bytes, migrations }) =>
      app.log.info({ heldMs, bytes, migrations: migrations.length }, 'backup snapshot taken'),
    );
    // Released as the app closes, before the database does (a snapshot under way finishes first).
    app.addHook('onClose', () => dataDirClaim.close());
  }

  let scheduler: Scheduler | null = null;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // The job under way finishes first, and the e-mails being sent: every job is safe to interrupt and
    // every e-mail is in the outbox, but what is finished needs no resuming.
    await scheduler?.stop();
    await outboxIdle(context);
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(`${config.BRAND_NAME} is serving ${config.publicUrl} (${database.kind})`);
  if (config.JOBS_ENABLED) scheduler = startScheduler(context);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirInUseError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
