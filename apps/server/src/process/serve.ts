import cluster from 'node:cluster';
import path from 'node:path';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import { claimDataDir } from '../db/backup/control-channel.ts';
import { openDatabase } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { type Scheduler, startScheduler } from '../jobs/scheduler.ts';
import { isShuttingDown } from '../lib/lifecycle.ts';
import { SHUTDOWN_MESSAGE } from './messages.ts';
import { announceReady } from './ready-line.ts';
import { type Lifecycle, installGracefulShutdown } from './shutdown.ts';

/**
 * One serving process: the whole product on the configured port, alone (`npm start`) or as a worker
 * of the cluster (WORKERS > 1; the primary applied the migrations before forking).
 */
export async function serve(config: Config): Promise<void> {
  // Until the app listens, a signal or the primary's request is only noted; a second signal exits.
  let lifecycle: Lifecycle | null = null;
  let requested: string | null = null;
  const onSignal = (name: string) => {
    if (lifecycle) lifecycle.signal(name);
    else if (requested) process.exit(1);
    else requested = name;
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  if (cluster.isWorker) {
    process.on('message', (message: unknown) => {
      if (message !== SHUTDOWN_MESSAGE) return;
      if (lifecycle) void lifecycle.shutdown('asked by the primary');
      else requested ??= 'asked by the primary';
    });
  }

  // The embedded database belongs to one process: claim its folder before opening it (refused while
  // another server, backup or restore holds it); the claim's socket serves `npm run backup`. A cluster
  // runs on PostgreSQL only, so its workers never claim.
  const dataDirClaim = config.DATABASE_URL ? null : await claimDataDir(config.DATA_DIR, 'server');
  const database = openDatabase({ url: config.DATABASE_URL, pgliteDir: path.resolve(config.DATA_DIR, 'db') });
  const applied = cluster.isWorker ? [] : await migrate(database.sql);
  const { app, context } = await buildApp({ config, database });
  if (applied.length > 0) app.log.info({ applied }, 'migrations applied');
  if (dataDirClaim) {
    dataDirClaim.serveSnapshots(database.snapshot!, ({ heldMs, bytes, migrations }) =>
      app.log.info({ heldMs, bytes, migrations: migrations.length }, 'backup snapshot taken'),
    );
    // Released as the app closes, before the database does (a snapshot under way finishes first).
    app.addHook('onClose', () => dataDirClaim.close());
  }
  const started = installGracefulShutdown({
    app,
    context,
    database,
    graceMs: config.SHUTDOWN_GRACE_MS,
    delayMs: config.SHUTDOWN_DELAY_MS,
  });

  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(`${config.BRAND_NAME} is serving ${config.publicUrl} (${database.kind})`);
  // A worker of the cluster leaves it to the primary, which says it once.
  if (!cluster.isWorker) announceReady(config);
  lifecycle = started;
  if (requested) {
    void started.shutdown(requested);
    return;
  }
  if (config.JOBS_ENABLED && !isShuttingDown(app)) {
    const scheduler: Scheduler = startScheduler(context);
    started.setScheduler(scheduler);
  }
}
