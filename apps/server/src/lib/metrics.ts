import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

// The server's Prometheus metrics (`GET /metrics`, behind METRICS_TOKEN: http/metrics.ts). Each app
// has a registry of its own — never prom-client's global one — so that several apps in one process
// (tests) count apart. Code that has something to count calls the few methods below through its
// services (`AppServices.metrics`); nothing else imports prom-client. Labels are bounded sets: a
// route's pattern (never the URL: no codes, ids or tokens), a status code, a job's or an e-mail's
// kind, an outcome; never anything a person typed.

/** Why a visit was not recorded (the HTTP answer of storePreInstallData). */
export type ClickRefusal = 'rate-limited' | 'invalid' | 'shutting-down' | 'error';
/** A recorded visit: the counted click of its code, visitor and hour; a repeat or code-less visit; a bot. */
export type ClickRecording = 'counted' | 'uncounted' | 'bot';
/** What a scheduled job's turn came to (jobs/scheduler.ts). */
export type JobRunOutcome = 'done' | 'not-due' | 'locked' | 'failed';
/** One delivery attempt of an outbox e-mail. */
export type EmailDelivery = 'sent' | 'failed' | 'given-up';

/** The database's connections: PostgreSQL's pool, or PGlite's single connection. */
export interface PoolUse {
  /** Connections open. */
  total: number;
  /** Open and unused (PostgreSQL only). */
  idle: number | null;
  /** Queries waiting for a connection (PostgreSQL only). */
  waiting: number | null;
  /** The most the pool opens. */
  max: number;
}

/** Figures read when Prometheus scrapes, from the parts of the app that hold them. */
export interface MetricSources {
  /** E-mails waiting to be sent, and given up (kept until retention deletes them). */
  outbox(): Promise<{ pending: number; givenUp: number }>;
  /** Visits queued in the visit writer, not yet in a commit. */
  clickQueue(): number;
  pool(): PoolUse;
}

export interface AppMetrics {
  readonly registry: Registry;
  /** One HTTP answer: its route's pattern (`unmatched` when no route matched), status and time. */
  httpRequest(method: string, route: string, statusCode: number, seconds: number): void;
  clickRecorded(outcome: ClickRecording): void;
  clickRefused(reason: ClickRefusal): void;
  /** One commit of the visit writer: how many visits, how long, whether it failed. */
  clickBatch(rows: number, seconds: number, ok: boolean): void;
  jobRun(job: string, outcome: JobRunOutcome, seconds: number): void;
  emailDelivery(kind: string, outcome: EmailDelivery): void;
  /** A RevenueCat webhook call: the event's type (bounded by the caller) and what it came to. */
  webhookEvent(type: string, outcome: string): void;
  /** Empties the registry (the app is closing). */
  close(): void;
}

const PREFIX = 'skanova_';

/** Seconds: a page from memory takes a millisecond, a signup's password hash a few hundred. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** The visit writer's batches hold 1 to 500 visits (features/landing/visit-writer.ts). */
const BATCH_SIZE_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500];

/** How long a scrape waits for the outbox's figures from the database. */
const OUTBOX_QUERY_TIMEOUT_MS = 1000;

/** The promise's value, or null after `ms` (the promise goes on; a rejection is the caller's). */
function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  promise.catch(() => {});
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The app's metrics. `defaults` adds prom-client's process and Node.js metrics (CPU, memory,
 * event-loop lag, GC): only when metrics are served, since their collectors run in the background.
 */
export function createAppMetrics(options: { defaults: boolean; sources: MetricSources }): AppMetrics {
  const registry = new Registry();
  const registers = [registry];
  if (options.defaults) collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  const { sources } = options;

  const httpLabels = ['method', 'route', 'status_code'] as const;
  const httpRequests = new Counter({
    name: `${PREFIX}http_requests_total`,
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: httpLabels,
    registers,
  });
  const httpDuration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'Time to answer an HTTP request, by method, route pattern and status code.',
    labelNames: httpLabels,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const clicksRecorded = new Counter({
    name: `${PREFIX}clicks_recorded_total`,
    help: 'Landing-page visits stored: counted clicks, uncounted visits (repeat or without a code) and bots.',
    labelNames: ['outcome'] as const,
    registers,
  });
  const clicksRefused = new Counter({
    name: `${PREFIX}clicks_refused_total`,
    help: 'Landing-page visits not stored, by reason.',
    labelNames: ['reason'] as const,
    registers,
  });
  const batchSize = new Histogram({
    name: `${PREFIX}click_batch_size`,
    help: 'Visits per visit-writer commit (group commit).',
    buckets: BATCH_SIZE_BUCKETS,
    registers,
  });
  const batchSeconds = new Histogram({
    name: `${PREFIX}click_batch_commit_seconds`,
    help: 'Time of one visit-writer commit.',
    labelNames: ['outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  new Gauge({
    name: `${PREFIX}click_queue_length`,
    help: 'Visits waiting for the next visit-writer commit.',
    registers,
    collect() {
      this.set(sources.clickQueue());
    },
  });
  const jobRuns = new Counter({
    name: `${PREFIX}job_runs_total`,
    help: 'Scheduled job turns by job and outcome (done, not-due, locked by another process, failed).',
    labelNames: ['job', 'outcome'] as const,
    registers,
  });
  const jobFailures = new Counter({
    name: `${PREFIX}job_failures_total`,
    help: 'Scheduled job runs that failed, by job.',
    labelNames: ['job'] as const,
    registers,
  });
  const jobSeconds = new Histogram({
    name: `${PREFIX}job_duration_seconds`,
    help: 'Time of a scheduled job turn, by job.',
    labelNames: ['job'] as const,
    buckets: [0.005, 0.025, 0.1, 0.5, 2.5, 10, 60, 300],
    registers,
  });
  const emails = new Counter({
    name: `${PREFIX}email_deliveries_total`,
    help: 'Outbox e-mail delivery attempts by kind and outcome (sent, failed and retried later, given up).',
    labelNames: ['kind', 'outcome'] as const,
    registers,
  });
  new Gauge({
    name: `${PREFIX}email_outbox_messages`,
    help: 'E-mails in the outbox: pending (waiting to be sent or retried) and given up.',
    labelNames: ['state'] as const,
    registers,
    async collect() {
      // A scrape must answer when the database does not (an exhausted pool is when the other
      // figures matter most): without an answer in time, the outbox's figures are left out.
      this.reset();
      const depth = await withinMs(sources.outbox(), OUTBOX_QUERY_TIMEOUT_MS).catch(() => null);
      if (!depth) return;
      this.set({ state: 'pending' }, depth.pending);
      this.set({ state: 'given-up' }, depth.givenUp);
    },
  });
  const webhookEvents = new Counter({
    name: `${PREFIX}revenuecat_webhook_events_total`,
    help: 'RevenueCat webhook calls by event type and outcome.',
    labelNames: ['type', 'outcome'] as const,
    registers,
  });
  new Gauge({
    name: `${PREFIX}db_pool_connections`,
    help: 'Database connections by state: total open, idle, and queries waiting for one (PGlite: one connection).',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const pool = sources.pool();
      this.set({ state: 'total' }, pool.total);
      if (pool.idle !== null) this.set({ state: 'idle' }, pool.idle);
      if (pool.waiting !== null) this.set({ state: 'waiting' }, pool.waiting);
    },
  });
  new Gauge({
    name: `${PREFIX}db_pool_max_connections`,
    help: 'The most connections the database pool opens.',
    registers,
    collect() {
      this.set(sources.pool().max);
    },
  });

  return {
    registry,
    httpRequest(method, route, statusCode, seconds) {
      const labels = { method, route, status_code: statusCode };
      httpRequests.inc(labels);
      httpDuration.observe(labels, seconds);
    },
    clickRecorded: (outcome) => clicksRecorded.inc({ outcome }),
    clickRefused: (reason) => clicksRefused.inc({ reason }),
    clickBatch(rows, seconds, ok) {
      batchSize.observe(rows);
      batchSeconds.observe({ outcome: ok ? 'committed' : 'failed' }, seconds);
    },
    jobRun(job, outcome, seconds) {
      jobRuns.inc({ job, outcome });
      if (outcome === 'failed') jobFailures.inc({ job });
      jobSeconds.observe({ job }, seconds);
    },
    emailDelivery: (kind, outcome) => emails.inc({ kind, outcome }),
    webhookEvent: (type, outcome) => webhookEvents.inc({ type, outcome }),
    close: () => registry.clear(),
  };
}
