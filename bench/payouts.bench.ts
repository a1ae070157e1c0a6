import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import type { AppContext } from '../apps/server/src/context.ts';
import { type Database, type SqlClient, openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { exportPayouts } from '../apps/server/src/features/payouts/payout-exports.ts';
import { runPayouts } from '../apps/server/src/features/payouts/payout-run.ts';
import { formatNumber as number, percentile, withBenchPostgres, withPgliteFolder } from './lib/bench-process.ts';
import { runAsScript } from './lib/run-as-script.ts';

// The monthly payout job (docs/product/money.md#payouts): runPayouts for one payday on 10,000 affiliates, each with a
// payment method (PayPal or bank, IBAN and BIC sealed) and approved commissions, a share of them
// below the $20 minimum, a few with a clawback. In process, on the embedded PGlite (a data folder,
// as in production) and on PostgreSQL. While the job runs, a probe asks the database a dashboard-size
// question every 20 ms: the job works in small transactions so that requests still get answers.
// Then the exports of the payday: the PayPal CSV and the SEPA pain.001 files.
// Run alone: node --import tsx bench/payouts.bench.ts

const AFFILIATES = 10_000;
const PAYDAY = '2025-06-15';
/** The job runs on the payday's morning; everything seeded was approved in May. */
const NOW = new Date('2025-06-15T03:00:00.000Z');
const PROBE_INTERVAL_MS = 20;

interface DatabaseResult {
  database: string;
  seedSeconds: number;
  conversions: number;
  runSeconds: number;
  created: number;
  totalCents: number;
  belowMinimum: number;
  withoutPaymentMethod: number;
  probe: { count: number; p50: number; p99: number; max: number };
  repeatMs: number;
  paypal: { payouts: number; seconds: number };
  sepa: { payouts: number; seconds: number };
}

/**
 * 10,000 affiliates; affiliate g has 5 + (g mod 16) approved $2 commissions (5 to 20: those under 10
 * stay below the minimum), every 10th a −$3 clawback, every 25th no payment method, the others PayPal
 * and bank transfer in turn.
 */
async function seed(
  sql: Pick<SqlClient, 'query'>,
  sealed: { iban: string; bic: string },
): Promise<{ seconds: number; conversions: number }> {
  const started = performance.now();
  await sql.query(
    `INSERT INTO affiliates (id, first_name, last_name, status, language, terms_accepted_at, created_at)
     SELECT 'bench-payee-' || lpad(g::text, 5, '0'), 'Bench', 'Payee ' || g, 'active', CASE WHEN g % 3 = 0 THEN 'en' ELSE 'fr' END,
            $2::timestamptz - interval '200 days', $2::timestamptz - interval '200 days'
     FROM generate_series(1, $1) g`,
    [AFFILIATES, NOW.toISOString()],
  );
  await sql.query(
    `INSERT INTO payment_methods (id, affiliate_id, type, paypal_email, bank_name, account_holder, iban_encrypted, bic_encrypted, iban_last4)
     SELECT 'bench-method-' || g, 'bench-payee-' || lpad(g::text, 5, '0'),
            CASE WHEN g % 2 = 0 THEN 'paypal' ELSE 'bank_transfer' END,
            CASE WHEN g % 2 = 0 THEN 'payee' || g || '@paypal.example' END,
            CASE WHEN g % 2 = 1 THEN 'Bench Bank' END,
            CASE WHEN g % 2 = 1 THEN 'Bénédicte Payée ' || g END,
            CASE WHEN g % 2 = 1 THEN $2 END, CASE WHEN g % 2 = 1 THEN $3 END, CASE WHEN g % 2 = 1 THEN '3000' END
     FROM generate_series(1, $1) g WHERE g % 25 <> 0`,
    [AFFILIATES, sealed.iban, sealed.bic],
  );
  const { rows } = await sql.query<{ n: number }>(
    `WITH inserted AS (
       INSERT INTO conversions (source_event_id, app_user_id, affiliate_id, occurred_at, commission_cents, rate_tier, status, approved_at)
       SELECT 'bench-payout-event-' || g || '-' || k, 'bench-payout-user-' || g || '-' || k, 'bench-payee-' || lpad(g::text, 5, '0'),
              $2::timestamptz - interval '60 days' + k * interval '1 hour', 200, 'standard', 'approved',
              $2::timestamptz - interval '30 days' + k * interval '1 hour'
       FROM generate_series(1, $1) g CROSS JOIN LATERAL generate_series(1, 5 + g % 16) k
       RETURNING 1
     ) SELECT count(*)::int AS n FROM inserted`,
    [AFFILIATES, NOW.toISOString()],
  );
  await sql.query(
    `INSERT INTO commission_adjustments (affiliate_id, amount_cents, reason, created_at)
     SELECT 'bench-payee-' || lpad(g::text, 5, '0'), -300, 'refund after payment', $2::timestamptz - interval '20 days'
     FROM generate_series(10, $1, 10) g`,
    [AFFILIATES, NOW.toISOString()],
  );
  return { seconds: (performance.now() - started) / 1000, conversions: rows[0]?.n ?? 0 };
}

/** Asks the database a small question every PROBE_INTERVAL_MS until `done` settles; answers the latencies. */
async function probe(database: Database, done: Promise<unknown>): Promise<number[]> {
  const latencies: number[] = [];
  let finished = false;
  void done.finally(() => {
    finished = true;
  });
  while (!finished) {
    // From when the question was due (the timer's time), not from when the event loop got to it:
    // a request arriving then would have waited as long.
    const due = performance.now() + PROBE_INTERVAL_MS;
    await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
    await database.sql.query('SELECT count(*)::int AS n FROM conversions WHERE affiliate_id = $1', [
      `bench-payee-${String(1 + (latencies.length % AFFILIATES)).padStart(5, '0')}`,
    ]);
    latencies.push(performance.now() - due);
  }
  return latencies.sort((a, b) => a - b);
}

async function measure(databaseName: string, database: Database, dataDir: string): Promise<DatabaseResult> {
  await migrate(database.sql);
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    JOBS_ENABLED: 'false',
    IP_HASH_SECRET: 'benchmark-secret-benchmark-secret-0123',
    AUTH_SECRET: 'benchmark-auth-secret-benchmark-auth-0123',
    DATA_ENCRYPTION_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  });
  const { app, context } = await buildApp({ config, database, serveSite: false, now: () => NOW });
  try {
    const seeded = await seed(database.sql, {
      iban: context.cipher.encrypt('FR7630006000011234567890189'),
      bic: context.cipher.encrypt('AGRIFRPPXXX'),
    });
    const started = performance.now();
    const job = runPayouts(context, PAYDAY, { actor: 'benchmark' });
    const [result, latencies] = await Promise.all([job, probe(database, job)]);
    const runSeconds = (performance.now() - started) / 1000;
    const repeatStarted = performance.now();
    await runPayouts(context, PAYDAY);
    const repeatMs = performance.now() - repeatStarted;
    return {
      database: databaseName,
      seedSeconds: seeded.seconds,
      conversions: seeded.conversions,
      runSeconds,
      created: result.created,
      totalCents: result.totalCents,
      belowMinimum: result.belowMinimum,
      withoutPaymentMethod: result.withoutPaymentMethod,
      probe: {
        count: latencies.length,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        max: latencies.at(-1) ?? Number.NaN,
      },
      repeatMs,
      paypal: await timedExport(context, 'paypal'),
      sepa: await timedExport(context, 'sepa'),
    };
  } finally {
    await app.close();
  }
}

async function timedExport(
  context: AppContext,
  kind: 'paypal' | 'sepa',
): Promise<{ payouts: number; seconds: number }> {
  const started = performance.now();
  const file = await exportPayouts(context, {
    kind,
    payday: PAYDAY,
    actor: 'benchmark',
    ...(kind === 'sepa' ? { exchangeRate: '0.9231' } : {}),
  });
  return { payouts: file.payoutCount, seconds: (performance.now() - started) / 1000 };
}

function benchPglite(): Promise<DatabaseResult> {
  return withPgliteFolder('skanova-bench-payouts-', async (dir) => {
    const database = openDatabase({ pgliteDir: path.join(dir, 'db') });
    try {
      return await measure('PGlite (data folder)', database, dir);
    } finally {
      await database.close();
    }
  });
}

function benchPostgres(): Promise<DatabaseResult> {
  return withBenchPostgres((url) =>
    withPgliteFolder('skanova-bench-payouts-pg-', async (dir) => {
      const database = openDatabase({ url });
      try {
        return await measure('PostgreSQL', database, dir);
      } finally {
        await database.close();
      }
    }),
  );
}

function report(results: DatabaseResult[]): string {
  const lines = [
    `runPayouts for one payday, in process (one transaction per 100 affiliates on PGlite, per 500 on PostgreSQL); ${number(AFFILIATES)} affiliates with approved`,
    `commissions (5 to 20 × $2; under $20 rolls over), 1 in 10 with a clawback, 1 in 25 without a payment method; Node ${process.version}.`,
    'Probe: a one-affiliate query every 20 ms during the run (the embedded database has one connection).',
    '',
    '| Database | Conversions | Seeding (s) | Run (s) | Payouts | Payouts/s | Paid | Below minimum | No method | Probe p50 / p99 / max (ms) | Run again (ms) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|',
  ];
  for (const r of results) {
    lines.push(
      `| ${r.database} | ${number(r.conversions)} | ${number(r.seedSeconds, 1)} | ${number(r.runSeconds, 2)} | ${number(r.created)} | ${number(r.created / r.runSeconds)} | $${number(r.totalCents / 100, 2)} | ${number(r.belowMinimum)} | ${number(r.withoutPaymentMethod)} | ${number(r.probe.p50, 1)} / ${number(r.probe.p99, 1)} / ${number(r.probe.max, 1)} (${r.probe.count} probes) | ${number(r.repeatMs, 1)} |`,
    );
  }
  lines.push('', '| Database | PayPal CSV: payouts, s | SEPA pain.001.001.09: payouts, s |', '|---|---|---|');
  for (const r of results) {
    lines.push(
      `| ${r.database} | ${number(r.paypal.payouts)}, ${number(r.paypal.seconds, 2)} | ${number(r.sepa.payouts)}, ${number(r.sepa.seconds, 2)} |`,
    );
  }
  return lines.join('\n');
}

/** Runs both databases and answers the markdown figures. */
export default async function run(): Promise<string> {
  const results = [await benchPglite(), await benchPostgres()];
  return report(results);
}

runAsScript(import.meta.url, run);
