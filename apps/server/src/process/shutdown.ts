import { Server as NetServer, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/client.ts';
import { outboxIdle } from '../email/outbox-worker.ts';
import type { Scheduler } from '../jobs/scheduler.ts';
import { isShuttingDown, markShuttingDown } from '../lib/lifecycle.ts';

// Graceful shutdown (docs/operations-processes.md). On the first SIGTERM or SIGINT, in order:
//
// 1. The app is marked as shutting down: /readyz answers 503 and every answer from now on carries
//    `Connection: close`. The scheduler stops ticking (the job under way goes on).
// 2. After SHUTDOWN_DELAY_MS (0 by default: for a load balancer that polls /readyz to notice), the
//    listening socket closes: new connections are refused by the operating system.
// 3. Requests in flight finish; a request that arrives on a connection already open is served too,
//    and its answer closes the connection. A connection that was idle when the signal came is
//    closed once it has stayed idle for IDLE_LINGER_MS (closing it at once would race with a client
//    sending on it at that very moment: the one way to cut a request that no server can tell from
//    silence). Nothing is refused with an error that could still be served.
// 4. The app closes (its onClose hooks, last registered first): the job under way finishes (it
//    releases its lock), the e-mails being sent get their outcome recorded, the mailer closes, the
//    visit writer commits what it still holds (every visit answered 200 already is committed).
// 5. The database closes and the process exits 0.
//
// All of it within SHUTDOWN_GRACE_MS: past that, the process logs what it was waiting for and exits
// 1 (the database releases a job's lock with its connection; every job is safe to interrupt). A
// second signal exits at once, with 1.

/** How long a connection that was idle at the signal may stay idle before it is closed. */
export const IDLE_LINGER_MS = 1000;
/** How often the connections are looked at while they drain. */
const DRAIN_POLL_MS = 50;

export interface GracefulShutdownOptions {
  app: FastifyInstance;
  context: AppContext;
  database: Database;
  /** SHUTDOWN_GRACE_MS */
  graceMs: number;
  /** SHUTDOWN_DELAY_MS */
  delayMs?: number;
  /** Ends the process (tests of the sequence pass their own). */
  exit?: (code: number) => void;
}

export interface Lifecycle {
  /** The scheduler this process runs: shutdown stops it and waits for the job under way. */
  setScheduler(scheduler: Scheduler): void;
  /** A signal arrived: the first starts the shutdown, a second one exits at once. */
  signal(name: string): void;
  /** Starts the shutdown (a request from the cluster's primary); once only, never forcing. */
  shutdown(reason: string): Promise<void>;
}

interface ConnectionState {
  /** Requests of this connection not yet answered. */
  active: number;
  /** When its last answer was done (or when it opened). */
  idleSince: number;
}

/**
 * Prepares the app for a graceful shutdown: call it before `listen` (it adds hooks and follows the
 * connections). The caller wires the process's signals to `signal`.
 */
export function installGracefulShutdown(options: GracefulShutdownOptions): Lifecycle {
  const { app, context, database, graceMs, delayMs = 0 } = options;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const connections = new Map<Socket, ConnectionState>();
  let scheduler: Scheduler | null = null;
  let jobsStopped: Promise<void> = Promise.resolve();
  let stopping: Promise<void> | null = null;
  let phase = 'starting';

  app.server.on('connection', (socket: Socket) => {
    connections.set(socket, { active: 0, idleSince: Date.now() });
    socket.once('close', () => connections.delete(socket));
  });
  app.server.on('request', (request: { socket: Socket }, response: NodeJS.EventEmitter) => {
    const state = connections.get(request.socket);
    if (!state) return;
    state.active += 1;
    response.once('close', () => {
      state.active -= 1;
      state.idleSince = Date.now();
    });
  });

  // From the signal on, every answer closes its connection: the client opens a new one, which the
  // closed listening socket refuses (a load balancer then tries another process).
  app.addHook('onSend', async (_request, reply, payload) => {
    if (isShuttingDown(app)) reply.header('connection', 'close');
    return payload;
  });
  // Registered after the app's own onClose hooks, so it runs before them (Fastify runs them last
  // first): the job under way and the e-mails being sent finish before the mailer closes.
  app.addHook('onClose', async () => {
    phase = 'waiting for the job under way';
    await jobsStopped;
    phase = 'waiting for the e-mails being sent';
    await outboxIdle(context);
    phase = 'closing the mailer and committing the last visits';
  });

  async function drainConnections(): Promise<void> {
    const signalAt = Date.now();
    while (connections.size > 0) {
      const now = Date.now();
      for (const [socket, state] of connections) {
        if (state.active === 0 && now - Math.max(state.idleSince, signalAt) >= IDLE_LINGER_MS) socket.destroy();
      }
      if (connections.size === 0) break;
      await new Promise((resolve) => setTimeout(resolve, DRAIN_POLL_MS));
    }
  }

  async function run(reason: string): Promise<void> {
    markShuttingDown(app);
    app.log.info({ reason, graceMs, delayMs, connections: connections.size }, 'shutting down');
    const graceOver = setTimeout(() => {
      app.log.error({ phase, connections: connections.size }, 'shutdown grace period over: exiting now');
      exit(1);
    }, graceMs);
    graceOver.unref();

    jobsStopped = scheduler ? scheduler.stop() : Promise.resolve();
    if (delayMs > 0) {
      phase = 'serving while the load balancer notices';
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
    phase = 'finishing the requests in flight';
    // http.Server#close would also drop the idle keep-alive connections at once: the listening
    // socket alone closes here, and the connections drain one by one.
    if (app.server.listening) NetServer.prototype.close.call(app.server);
    await drainConnections();
    // Stops listening (done), runs the onClose hooks: jobs, e-mails, mailer, visit writer.
    await app.close();
    phase = 'closing the database';
    await database.close();
    clearTimeout(graceOver);
    app.log.info('shut down');
    exit(0);
  }

  const lifecycle: Lifecycle = {
    setScheduler(started) {
      scheduler = started;
    },
    shutdown(reason) {
      stopping ??= run(reason).catch((error: unknown) => {
        app.log.error({ err: error, phase }, 'shutdown failed');
        exit(1);
      });
      return stopping;
    },
    signal(name) {
      if (stopping) {
        app.log.warn({ signal: name, phase }, 'second signal during shutdown: exiting now');
        exit(1);
        return;
      }
      void lifecycle.shutdown(name);
    },
  };
  return lifecycle;
}
