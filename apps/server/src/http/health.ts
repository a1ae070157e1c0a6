import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { readMigrations } from '../db/migrate.ts';
import { quietRouteLevel } from '../lib/logging.ts';
import { WRITER_TUNING, visitQueueLength } from '../features/landing/visit-writer.ts';
import { isShuttingDown, markShuttingDown } from '../lib/lifecycle.ts';

// Health for load balancers and orchestrators (docs/operations-observability.md):
//
// - `GET /healthz`: the process is up and answering (liveness). Nothing else is checked: a
//   restart cannot fix a database that is down.
// - `GET /readyz`: this process should get traffic (readiness). 503 with the reasons when the
//   database does not answer a short query in time, when it lacks a migration this code ships,
//   when the visit writer is backed up, or once shutdown has begun (so that a load balancer stops
//   sending requests while the process finishes the ones it has).
//
// No authentication and nothing personal in the answers; not rate limited, and not in the request
// log (probes come every few seconds); the security headers are those of every answer.

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';

export type NotReadyReason = 'shutting-down' | 'database-unreachable' | 'migrations-pending' | 'clicks-backed-up';

/** The database must answer within this (a probe's own timeout is usually a few seconds). */
const DATABASE_CHECK_TIMEOUT_MS = 2000;
/**
 * Visits queued beyond this many full batches mean commits are falling behind arrivals: a healthy
 * writer takes everything queued into its next commit, so the queue rarely holds one batch.
 */
const BACKED_UP_BATCHES = 4;

// The process's shutdown (src/process/shutdown.ts) marks it first thing on SIGTERM; `app.close()`
// marks it too. Re-exported for the tests that build an app without a process around it.
export { markShuttingDown };

export function registerHealth(app: FastifyInstance, ctx: AppContext): void {
  // The migrations this code ships, read once: the database must have every one of them.
  const expected = readMigrations().map((migration) => migration.name);
  const visitQueueLimit = BACKED_UP_BATCHES * WRITER_TUNING[ctx.database.kind].maxBatch;
  const probe = { logLevel: quietRouteLevel(ctx.config.LOG_LEVEL), config: { rateLimit: false } };

  app.addHook('preClose', (done) => {
    markShuttingDown(app);
    done();
  });

  app.get(HEALTH_PATH, probe, async (_request, reply) => {
    return reply.header('cache-control', 'no-store').send({ status: 'ok' });
  });

  app.get(READY_PATH, probe, async (_request, reply) => {
    const reasons: NotReadyReason[] = [];
    if (isShuttingDown(app)) {
      reasons.push('shutting-down');
    } else {
      if (visitQueueLength(ctx) > visitQueueLimit) reasons.push('clicks-backed-up');
      const database = await checkDatabase(ctx, expected);
      if (database) reasons.push(database);
    }
    reply.header('cache-control', 'no-store');
    if (reasons.length > 0) return reply.code(503).send({ status: 'not-ready', reasons });
    return reply.send({ status: 'ready' });
  });
}

/** Reads the applied migrations in one short query; answers what is wrong, or null. */
async function checkDatabase(
  ctx: AppContext,
  expected: readonly string[],
): Promise<'database-unreachable' | 'migrations-pending' | null> {
  let applied: Set<string>;
  try {
    const query = ctx.database.sql.query<{ name: string }>('SELECT name FROM schema_migrations');
    const { rows } = await withTimeout(query, DATABASE_CHECK_TIMEOUT_MS);
    applied = new Set(rows.map((row) => row.name));
  } catch (error) {
    // No migrations table at all: a database nothing was applied to.
    return (error as { code?: unknown }).code === '42P01' ? 'migrations-pending' : 'database-unreachable';
  }
  return expected.every((name) => applied.has(name)) ? null : 'migrations-pending';
}

/** The promise, or a rejection after `ms` (the query itself goes on; its outcome is ignored). */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  promise.catch(() => {});
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
