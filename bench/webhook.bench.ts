import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { REVENUECAT_WEBHOOK_PATH } from '../apps/server/src/http/revenuecat-webhook.ts';
import {
  formatNumber as number,
  percentile,
  startBenchServer,
  stopBenchServer,
  withBenchPostgres,
  withPgliteFolder,
} from './lib/bench-process.ts';
import { runAsScript } from './lib/run-as-script.ts';

// RevenueCat webhook ingestion (docs/product/attribution.md#conversions): POST /api/webhooks/revenuecat over HTTP against a real
// server process, on the embedded PGlite (a data folder, as in production) and on PostgreSQL.
// Every event is unique (its own id); the mix is what a live app sends: first paid purchases of
// attributed users (each a conversion with its commission and e-mail), trial starts, renewals, and
// purchases of users nobody referred. Each event is one transaction: the event's row, the install
// lookup and aliases, the affiliate's lock and premium count, the conversion and the queued e-mail.
// This file is also the benchmark's server: run with WEBHOOK_BENCH_SERVER=1, it serves instead.
// Run alone: node --import tsx bench/webhook.bench.ts   (BENCH_DURATION=<seconds> to shorten)

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP_SECONDS = 3;
const CONNECTION_COUNTS = [1, 10];
const WEBHOOK_AUTH = 'Bearer benchmark-revenuecat-secret-0123456789';
/** Affiliates, each with one code and a share of the attributed installs. */
const AFFILIATES = 50;
/** Attributed installs seeded: more than the run can convert, so every conversion is a first one. */
const ATTRIBUTED_INSTALLS = 150_000;
const OUTCOMES_PATH = '/bench/webhook-outcomes';
const SERVER_ENV = 'WEBHOOK_BENCH_SERVER';

const attributedUser = (n: number) => `$RCAnonymousID:bench${String(n).padStart(10, '0')}`;

// ---------------------------------------------------------------------------------------------
// The server process.

interface WebhookBenchReady {
  kind: string;
  seedSeconds: number;
}

async function serve() {
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    JOBS_ENABLED: 'false',
    REVENUECAT_WEBHOOK_AUTH: WEBHOOK_AUTH,
    IP_HASH_SECRET: 'benchmark-secret-benchmark-secret-0123',
    AUTH_SECRET: 'benchmark-auth-secret-benchmark-auth-0123',
    DATA_ENCRYPTION_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  });
  const database = openDatabase({ url: config.DATABASE_URL, pgliteDir: process.env.BENCH_PGLITE_DIR ?? 'memory://' });
  await migrate(database.sql);
  const started = performance.now();
  await database.sql.query(
    `INSERT INTO auth_users (id, name, email) SELECT 'bench-user-' || g, 'Bench ' || g, 'bench-' || g || '@example.com' FROM generate_series(1, $1::int) AS g`,
    [AFFILIATES],
  );
  await database.sql.query(
    `INSERT INTO affiliates (id, user_id, first_name, language) SELECT 'bench-' || g, 'bench-user-' || g, 'Bench', 'en' FROM generate_series(1, $1::int) AS g`,
    [AFFILIATES],
  );
  await database.sql.query(
    `INSERT INTO referral_codes (code, affiliate_id) SELECT 'BENCH' || lpad(g::text, 3, '0'), 'bench-' || g FROM generate_series(1, $1::int) AS g`,
    [AFFILIATES],
  );
  await database.sql.query(
    `INSERT INTO installs (app_user_id, platform, referral_code_id, affiliate_id, method, confidence, attributed_at)
     SELECT '$RCAnonymousID:bench' || lpad(g::text, 10, '0'), CASE WHEN g % 2 = 0 THEN 'ios' ELSE 'android' END, r.id, r.affiliate_id, 'code_claim', 0.9, now()
     FROM generate_series(1, $1::int) AS g JOIN referral_codes r ON r.code = 'BENCH' || lpad(((g % $2::int) + 1)::text, 3, '0')`,
    [ATTRIBUTED_INSTALLS, AFFILIATES],
  );
  await database.sql.query('INSERT INTO app_user_aliases (alias, install_id) SELECT app_user_id, id FROM installs');
  const seedSeconds = Math.round(performance.now() - started) / 1000;

  const { app } = await buildApp({ config, database, serveSite: false });
  app.get(OUTCOMES_PATH, async () => {
    const { rows } = await database.sql.query<{ outcome: string; n: number }>(
      'SELECT outcome, count(*)::int AS n FROM revenuecat_events GROUP BY outcome ORDER BY outcome',
    );
    return Object.fromEntries(rows.map((row) => [row.outcome, row.n]));
  });
  await app.listen({ port: config.PORT, host: '127.0.0.1' });
  const ready: WebhookBenchReady = { kind: database.kind, seedSeconds };
  process.send?.(ready);
  process.on('SIGTERM', () => {
    void app
      .close()
      .then(() => new Promise((resolve) => setTimeout(resolve, 500)))
      .then(() => database.close())
      .then(() => process.exit(0));
  });
}

// ---------------------------------------------------------------------------------------------
// The load generator.

/** The next event: 5 in 10 convert an attributed user, 2 start a trial, 1 renews, 2 are strangers'. */
function createWorkload() {
  const runId = randomBytes(4).toString('hex');
  let sequence = 0;
  let nextAttributed = 0;
  return function nextEventBody(): string {
    sequence += 1;
    const slot = sequence % 10;
    const now = Date.now();
    const stranger = slot >= 8;
    const appUserId = stranger
      ? `$RCAnonymousID:stranger-${runId}-${sequence}`
      : attributedUser((nextAttributed++ % ATTRIBUTED_INSTALLS) + 1);
    const transaction = `${runId}${String(sequence).padStart(12, '0')}`;
    return JSON.stringify({
      api_version: '1.0',
      event: {
        id: `${runId}-${sequence}`,
        type: slot === 7 ? 'RENEWAL' : 'INITIAL_PURCHASE',
        app_id: 'app1234567890',
        app_user_id: appUserId,
        original_app_user_id: appUserId,
        aliases: [appUserId],
        period_type: slot === 5 || slot === 6 ? 'TRIAL' : 'NORMAL',
        purchased_at_ms: now,
        expiration_at_ms: now + 30 * 86_400_000,
        event_timestamp_ms: now,
        environment: 'PRODUCTION',
        entitlement_ids: ['premium'],
        presented_offering_id: 'default',
        product_id: 'skanova_monthly',
        price: slot === 5 || slot === 6 ? 0 : 9.99,
        price_in_purchased_currency: slot === 5 || slot === 6 ? 0 : 9.99,
        currency: 'USD',
        country_code: 'FR',
        store: sequence % 2 === 0 ? 'APP_STORE' : 'PLAY_STORE',
        takehome_percentage: 0.85,
        transaction_id: transaction,
        original_transaction_id: transaction,
        is_trial_conversion: false,
        subscriber_attributes: { $email: { updated_at_ms: now, value: `user${sequence}@example.com` } },
      },
    });
  };
}

interface Measure {
  connections: number;
  eventsPerSec: number;
  p50: number;
  p99: number;
  ok: number;
  failed: number;
}

async function load(port: number, nextEventBody: () => string, connections: number, seconds: number): Promise<Measure> {
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            path: REVENUECAT_WEBHOOK_PATH,
            setupRequest: (request) => ({
              ...request,
              headers: { ...request.headers, 'content-type': 'application/json', authorization: WEBHOOK_AUTH },
              body: nextEventBody(),
            }),
          },
        ],
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
  latencies.sort((a, b) => a - b);
  return {
    connections,
    eventsPerSec: result['2xx'] / result.duration,
    p50: Math.round(percentile(latencies, 50) * 100) / 100,
    p99: Math.round(percentile(latencies, 99) * 100) / 100,
    ok: result['2xx'],
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

async function outcomes(port: number): Promise<Record<string, number>> {
  const response = await fetch(`http://127.0.0.1:${port}${OUTCOMES_PATH}`);
  return (await response.json()) as Record<string, number>;
}

interface DatabaseResult {
  database: string;
  ready: WebhookBenchReady;
  measures: Measure[];
  /** Events recorded, by outcome, after every run (warm-up included). */
  outcomes: Record<string, number>;
  answered: number;
}

async function measure(database: string, env: Record<string, string>): Promise<DatabaseResult> {
  const { port, child, ready } = await startBenchServer<WebhookBenchReady>(fileURLToPath(import.meta.url), {
    ...env,
    [SERVER_ENV]: '1',
  });
  try {
    const nextEventBody = createWorkload();
    const warmup = await load(port, nextEventBody, 10, WARMUP_SECONDS);
    const measures: Measure[] = [];
    for (const connections of CONNECTION_COUNTS)
      measures.push(await load(port, nextEventBody, connections, DURATION_SECONDS));
    const answered = warmup.ok + measures.reduce((sum, m) => sum + m.ok, 0);
    return { database, ready, measures, outcomes: await outcomes(port), answered };
  } finally {
    await stopBenchServer(child);
  }
}

function benchPglite(): Promise<DatabaseResult> {
  return withPgliteFolder('skanova-bench-webhook-', (dir) =>
    measure('PGlite (data folder)', { BENCH_PGLITE_DIR: path.join(dir, 'db'), DATA_DIR: dir, DATABASE_URL: '' }),
  );
}

function benchPostgres(): Promise<DatabaseResult> {
  return withBenchPostgres((url) => measure('PostgreSQL', { DATABASE_URL: url }));
}

function report(results: DatabaseResult[]): string {
  const lines = [
    `POST ${REVENUECAT_WEBHOOK_PATH}, autocannon ${DURATION_SECONDS} s per row after a ${WARMUP_SECONDS} s warm-up; every event unique;`,
    `mix: 50% first paid purchases of attributed users (conversions), 20% trial starts, 10% renewals, 20% users nobody referred;`,
    `${number(AFFILIATES)} affiliates, ${number(ATTRIBUTED_INSTALLS)} attributed installs seeded; Node ${process.version}.`,
    '',
    '| Database | Connections | events/s | p50 (ms) | p99 (ms) | non-2xx/errors |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const r of results) {
    for (const m of r.measures)
      lines.push(
        `| ${r.database} | ${m.connections} | ${number(m.eventsPerSec)} | ${m.p50} | ${m.p99} | ${m.failed} |`,
      );
  }
  lines.push(
    '',
    '| Database | Seeding (s) | Events answered 200 | Events recorded, by outcome |',
    '|---|---:|---:|---|',
  );
  for (const r of results) {
    const recorded = Object.entries(r.outcomes)
      .map(([outcome, n]) => `${outcome} ${number(n)}`)
      .join(', ');
    lines.push(`| ${r.database} | ${number(r.ready.seedSeconds, 1)} | ${number(r.answered)} | ${recorded} |`);
  }
  return lines.join('\n');
}

/** Runs both databases and answers the markdown figures. */
export default async function run(): Promise<string> {
  const results = [await benchPglite(), await benchPostgres()];
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
