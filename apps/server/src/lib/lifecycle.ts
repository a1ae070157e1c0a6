import type { FastifyInstance } from 'fastify';

// Whether an application has begun shutting down (docs/operations-processes.md): set first thing on
// SIGTERM/SIGINT by the process's shutdown (src/process/shutdown.ts), before it stops accepting
// connections. Readiness reads it (a load balancer stops sending traffic), and from then on every
// answer closes its connection. Per application instance: tests build many in one process.

const shuttingDown = new WeakSet<FastifyInstance>();

/** From now on the application is shutting down (idempotent). */
export function markShuttingDown(app: FastifyInstance): void {
  shuttingDown.add(app);
}

/** Whether shutdown has begun for this application. */
export function isShuttingDown(app: FastifyInstance): boolean {
  return shuttingDown.has(app);
}
