import cluster, { type Worker } from 'node:cluster';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { SHUTDOWN_MESSAGE } from './messages.ts';
import { announceReady } from './ready-line.ts';

// WORKERS=N (docs/operations-processes.md): this process is the primary of a node:cluster. It applies
// the migrations once, then forks N workers that serve the same port (the primary hands each new
// connection to the next worker in turn). Everything the workers share lives in PostgreSQL:
// sessions, rate limits, the jobs' locks, the e-mail outbox.
//
// - A worker that exits while the primary is not shutting down is started again, after a back-off
//   that doubles with each quick crash (1 s, 2 s … 30 s) and starts over once a worker has served
//   for a while.
// - SIGTERM or SIGINT: the primary asks each worker to shut down (over the cluster's channel, so a
//   worker that got the same signal from the terminal does not take it as a second one), waits for
//   them (each has SHUTDOWN_GRACE_MS), then exits 0 when every worker exited 0. A second signal
//   kills the workers and exits 1.

const RESTART_FIRST_MS = 1000;
const RESTART_MAX_MS = 30_000;
/** A worker that served this long before exiting was not crash-looping: its slot's back-off starts over. */
const STABLE_AFTER_MS = 60_000;
/** Past the workers' own grace period, how long the primary still waits before killing them. */
const PRIMARY_MARGIN_MS = 5000;

interface Slot {
  index: number;
  worker: Worker | null;
  /** Whether its worker listens (until then it may not yet hear the primary's messages). */
  listening: boolean;
  startedAt: number;
  /** Quick exits in a row. */
  crashes: number;
  restartTimer: NodeJS.Timeout | null;
}

export async function runPrimary(config: Config): Promise<void> {
  // The workers log through Fastify's logger (pino); the primary writes the same JSON lines.
  const log: FastifyBaseLogger = Fastify({ logger: { level: config.LOG_LEVEL } }).log.child({ role: 'primary' });

  const database = openDatabase({ url: config.DATABASE_URL, poolSize: 1 });
  try {
    const applied = await migrate(database.sql);
    if (applied.length > 0) log.info({ applied }, 'migrations applied');
  } finally {
    await database.close();
  }

  const slots: Slot[] = Array.from({ length: config.WORKERS }, (_, index) => ({
    index,
    worker: null,
    listening: false,
    startedAt: 0,
    crashes: 0,
    restartTimer: null,
  }));
  const exitCodes: (number | null)[] = [];
  let shuttingDown = false;
  let resolveAllExited: () => void = () => {};
  const allExited = new Promise<void>((resolve) => (resolveAllExited = resolve));

  const fork = (slot: Slot) => {
    slot.restartTimer = null;
    slot.startedAt = Date.now();
    slot.listening = false;
    const worker = cluster.fork();
    slot.worker = worker;
    log.info({ worker: worker.id, workerPid: worker.process.pid, slot: slot.index }, 'worker started');
  };

  let announced = false;
  cluster.on('listening', (worker) => {
    const slot = slots.find((candidate) => candidate.worker === worker);
    if (slot) slot.listening = true;
    log.info({ worker: worker.id, workerPid: worker.process.pid }, 'worker listening');
    // The port answers from the first worker on: where to open it, said once.
    if (!announced) {
      announced = true;
      announceReady(config);
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    const slot = slots.find((candidate) => candidate.worker === worker);
    if (!slot) return;
    slot.worker = null;
    if (shuttingDown) {
      // A worker stopped by SIGTERM before it listened had served nothing: that stop is clean too.
      exitCodes.push(code === null && signal === 'SIGTERM' ? 0 : code);
      log.info({ worker: worker.id, workerPid: worker.process.pid, code, signal }, 'worker stopped');
      if (slots.every((candidate) => candidate.worker === null)) resolveAllExited();
      return;
    }
    slot.crashes = Date.now() - slot.startedAt >= STABLE_AFTER_MS ? 1 : slot.crashes + 1;
    const delayMs = Math.min(RESTART_MAX_MS, RESTART_FIRST_MS * 2 ** (slot.crashes - 1));
    log.error(
      { worker: worker.id, workerPid: worker.process.pid, code, signal, restartInMs: delayMs },
      'worker exited: starting another',
    );
    slot.restartTimer = setTimeout(() => fork(slot), delayMs);
  });

  const stop = async (signal: string) => {
    shuttingDown = true;
    log.info({ signal, workers: config.WORKERS }, 'shutting down the workers');
    for (const slot of slots) {
      if (slot.restartTimer) clearTimeout(slot.restartTimer);
      slot.restartTimer = null;
      const worker = slot.worker;
      if (!worker) continue;
      // A worker still starting may not hear a message yet: SIGTERM stops it either way (its own
      // shutdown once its handlers are in place, the default action before).
      if (slot.listening && worker.isConnected()) worker.send(SHUTDOWN_MESSAGE);
      else worker.process.kill('SIGTERM');
    }
    if (slots.every((slot) => slot.worker === null)) resolveAllExited();
    const late = setTimeout(() => {
      log.error('workers still running past their grace period: killing them');
      for (const slot of slots) slot.worker?.process.kill('SIGKILL');
    }, config.SHUTDOWN_GRACE_MS + PRIMARY_MARGIN_MS);
    await allExited;
    clearTimeout(late);
    const clean = exitCodes.every((code) => code === 0);
    log.info({ exitCodes }, clean ? 'shut down' : 'shut down; a worker did not stop cleanly');
    process.exit(clean ? 0 : 1);
  };

  const onSignal = (signal: string) => {
    if (shuttingDown) {
      log.warn({ signal }, 'second signal during shutdown: killing the workers');
      for (const slot of slots) slot.worker?.process.kill('SIGKILL');
      process.exit(1);
    }
    void stop(signal);
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));

  log.info({ workers: config.WORKERS }, 'starting the workers');
  for (const slot of slots) fork(slot);
}
