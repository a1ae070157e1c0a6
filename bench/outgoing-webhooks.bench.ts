import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { inTransaction } from '../apps/server/src/db/transaction.ts';
import { SCHEDULED_JOBS, startScheduler } from '../apps/server/src/jobs/scheduler.ts';
import { commissionCreatedEvent } from '../apps/server/src/webhooks/events.ts';
import { enqueueWebhookEvents } from '../apps/server/src/webhooks/outbox.ts';
import { signalWebhookEvents } from '../apps/server/src/webhooks/signal.ts';
import {
  formatNumber as number,
  percentile,
  startBenchServer,
  stopBenchServer,
  withBenchPostgres,
  withPgliteFolder,
} from './lib/bench-process.ts';
import { runAsScript } from './lib/run-as-script.ts';

// Outgoing webhooks, a burst (docs/product/webhooks.md#delivery-and-retries): a server process with its
// webhook worker (the scheduler's job and its wake-up after each commit) and one endpoint pointing at a
// receiver in this process, which answers 200 at once. The server emits BURST events as the product
// does — each `commission.created` in a transaction of its own, from EMITTERS concurrent loops, spread
// over AFFILIATES affiliates — while the worker delivers them. Measured at the receiver: throughput
// (events delivered per second, from the first emission to the last receipt), the lag of each event
// (receipt − its `created` time) at p50/p95/p99/max, duplicates, and whether every affiliate's events
// arrived in the order they were emitted. On the embedded PGlite (a data folder) and on PostgreSQL.
// Run alone: node --import tsx bench/outgoing-webhooks.bench.ts   (BENCH_EVENTS=<n> to shorten,
// BENCH_DATABASES=pglite|postgres for one database)

const BURST = Number(process.env.BENCH_EVENTS ?? 10_000);
/** A multiple of EMITTERS (see `burst`). */
const AFFILIATES = 200;
const EMITTERS = 4;
const SERVER_ENV = 'OUTGOING_WEBHOOKS_BENCH_SERVER';
/** The whole burst must be delivered within this, or the run fails. */
const DEADLINE_MS = 10 * 60_000;

interface Ready {
  kind: string;
}

interface Emitted {
  emitMs: number;
  written: number;
}

// ---------------------------------------------------------------------------------------------
// The server process.

async function serve() {
  const config = loadConfig({
    ...process.env,
    // Not production: the receiver on this machine speaks http (production requires https).
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'true',
    IP_HASH_SECRET: 'benchmark-secret-benchmark-secret-0123',
    AUTH_SECRET: 'benchmark-auth-secret-benchmark-auth-0123',
    DATA_ENCRYPTION_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  });
  const database = openDatabase({ url: config.DATABASE_URL, pgliteDir: process.env.BENCH_PGLITE_DIR ?? 'memory://' });
  await migrate(database.sql);
  const { app, context } = await buildApp({ config, database, serveSite: false });
  await database.sql.query(
    `INSERT INTO webhook_endpoints (url, event_types, secret_sealed) VALUES ($1, '{commission.created}', $2)`,
    [process.env.BENCH_RECEIVER_URL, context.cipher.encrypt('whsec_benchmark')],
  );
  const startWorker = () =>
    startScheduler(context, { jobs: SCHEDULED_JOBS.filter((job) => job.name === 'webhook-delivery') });
  // live: the worker runs while the burst is emitted; backlog: it starts once the burst is queued.
  const backlog = process.env.BENCH_MODE === 'backlog';
  let scheduler = backlog ? null : startWorker();
  process.on('message', (message: unknown) => {
    if (message !== 'burst') return;
    void burst(context).then((emitted) => {
      process.send?.(emitted);
      if (backlog) {
        scheduler = startWorker();
        signalWebhookEvents();
      }
    });
  });
  process.send?.({ kind: database.kind } satisfies Ready);
  process.on('SIGTERM', () => {
    void Promise.resolve(scheduler?.stop())
      .then(() => app.close())
      .then(() => database.close())
      .then(() => process.exit(0));
  });
}

/**
 * BURST events, each in its own transaction, from EMITTERS loops at once. Loop k emits events k, k +
 * EMITTERS, k + 2 × EMITTERS …: every affiliate's events come from one loop, one after the other, so
 * the order they were emitted in is the order they committed in (the order deliveries keep).
 */
async function burst(context: Parameters<typeof inTransaction>[0] & { now: () => Date }): Promise<Emitted> {
  const started = performance.now();
  let written = 0;
  const emitter = async (_: unknown, first: number) => {
    for (let n = first; n < BURST; n += EMITTERS) {
      const event = commissionCreatedEvent({
        conversionId: n,
        affiliateId: `bench-affiliate-${n % AFFILIATES}`,
        commissionCents: 200,
        rateTier: 'standard',
        occurredAt: context.now(),
      });
      const ids = await inTransaction(context, (tx) => enqueueWebhookEvents(tx, [event], context.now()));
      written += ids.length;
    }
  };
  await Promise.all(Array.from({ length: EMITTERS }, emitter));
  return { emitMs: performance.now() - started, written };
}

// ---------------------------------------------------------------------------------------------
// The receiver and the measure.

interface Receipt {
  eventId: string;
  conversionId: number;
  affiliateId: string;
  lagMs: number;
  at: number;
}

function startReceiver(receipts: Receipt[]): Promise<Server> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = Date.now();
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        id: string;
        created: string;
        data: { conversionId: string; affiliateId: string };
      };
      receipts.push({
        eventId: event.id,
        conversionId: Number(event.data.conversionId),
        affiliateId: event.data.affiliateId,
        lagMs: at - Date.parse(event.created),
        at,
      });
      response.writeHead(200).end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

type Mode = 'live' | 'backlog';

interface Result {
  database: string;
  mode: Mode;
  emitted: Emitted;
  delivered: number;
  duplicates: number;
  outOfOrder: number;
  seconds: number;
  lag: { p50: number; p95: number; p99: number; max: number };
}

async function measure(database: string, mode: Mode, env: Record<string, string>): Promise<Result> {
  const receipts: Receipt[] = [];
  const receiver = await startReceiver(receipts);
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const { child } = await startBenchServer<Ready>(fileURLToPath(import.meta.url), {
    ...env,
    [SERVER_ENV]: '1',
    BENCH_RECEIVER_URL: receiverUrl,
    BENCH_MODE: mode,
    JOBS_TICK_MS: '30000',
  });
  try {
    let started = Date.now();
    const emitted = new Promise<Emitted>((resolve) => child.once('message', (message) => resolve(message as Emitted)));
    child.send('burst');
    const done = await emitted;
    // A backlog's throughput counts from the worker's start, once the whole burst is queued.
    if (mode === 'backlog') started = Date.now();
    const unique = () => new Set(receipts.map((receipt) => receipt.eventId)).size;
    while (unique() < done.written) {
      if (Date.now() - started > DEADLINE_MS) throw new Error(`only ${unique()} of ${done.written} events delivered`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const last = Math.max(...receipts.map((receipt) => receipt.at));
    // Each affiliate's events, in the order received, must be in the order emitted.
    const lastSeen = new Map<string, number>();
    let outOfOrder = 0;
    for (const receipt of receipts) {
      const previous = lastSeen.get(receipt.affiliateId) ?? -1;
      if (receipt.conversionId < previous) outOfOrder += 1;
      lastSeen.set(receipt.affiliateId, Math.max(previous, receipt.conversionId));
    }
    const lags = receipts.map((receipt) => receipt.lagMs).sort((a, b) => a - b);
    return {
      database,
      mode,
      emitted: done,
      delivered: unique(),
      duplicates: receipts.length - unique(),
      outOfOrder,
      seconds: (last - started) / 1000,
      lag: { p50: percentile(lags, 50), p95: percentile(lags, 95), p99: percentile(lags, 99), max: lags.at(-1) ?? 0 },
    };
  } finally {
    await stopBenchServer(child);
    await new Promise((resolve) => receiver.close(resolve));
  }
}

function benchPglite(mode: Mode): Promise<Result> {
  return withPgliteFolder('skanova-bench-outgoing-webhooks-', (dir) =>
    measure('PGlite (data folder)', mode, {
      BENCH_PGLITE_DIR: path.join(dir, 'db'),
      DATA_DIR: dir,
      DATABASE_URL: '',
    }),
  );
}

function benchPostgres(mode: Mode): Promise<Result> {
  return withBenchPostgres((url) => measure('PostgreSQL', mode, { DATABASE_URL: url }));
}

function report(results: Result[]): string {
  const lines = [
    `${number(BURST)} \`commission.created\` events, each in its own transaction, from ${EMITTERS} concurrent emitters over`,
    `${number(AFFILIATES)} affiliates, to one endpoint (a receiver on this machine answering 200 at once); the worker is woken`,
    `by each commit. **live**: the worker delivers while the burst is emitted (throughput from the first emission to the`,
    `last receipt); **backlog**: the whole burst is queued first, then the worker starts (throughput from its start).`,
    `Lag = receipt − the event's time (a backlog's includes its wait in the queue). Node ${process.version}.`,
    '',
    '| Database | Mode | Emitting (events/s) | Delivered | Throughput (events/s) | Lag p50 (ms) | p95 (ms) | p99 (ms) | max (ms) | Duplicates | Out of order |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of results)
    lines.push(
      `| ${r.database} | ${r.mode} | ${number(r.emitted.written / (r.emitted.emitMs / 1000))} | ${number(r.delivered)} | ${number(r.delivered / r.seconds)} | ${number(r.lag.p50)} | ${number(r.lag.p95)} | ${number(r.lag.p99)} | ${number(r.lag.max)} | ${r.duplicates} | ${r.outOfOrder} |`,
    );
  return lines.join('\n');
}

/** Runs both databases and answers the markdown figures. */
export default async function run(): Promise<string> {
  const only = process.env.BENCH_DATABASES;
  const results: Result[] = [];
  for (const mode of ['live', 'backlog'] as const) {
    if (!only || only.includes('pglite')) results.push(await benchPglite(mode));
    if (!only || only.includes('postgres')) results.push(await benchPostgres(mode));
  }
  return report(results);
}

if (process.env[SERVER_ENV] === '1') {
  serve().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  runAsScript(import.meta.url, run);
}
