import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { migrate } from '../../apps/server/src/db/migrate.ts';
import { createOperator } from '../../apps/server/src/features/admin/operators.ts';
import { paydayFor, payoutPeriod } from '../../apps/server/src/features/payouts/payout-period.ts';
import { SCHEDULED_JOBS, startScheduler } from '../../apps/server/src/jobs/scheduler.ts';

// The soak test's server (bench/soak.bench.ts), in its own process: the product as main.ts composes
// it — the database in DATA_DIR (or DATABASE_URL), migrations, the app, the scheduled jobs ticking
// (commission approval, retention, the e-mail outbox writing .eml files) — with, for the benchmark:
// an operator whose password the load generator knows, affiliates owed money for the payday (the
// operator runs their payouts during the soak: the monthly job is left out of the schedule so that
// the run happens under the traffic, when the generator asks), and GET /bench/memory, the
// process's memory as Node reports it.

export const SOAK_WEBHOOK_AUTH = 'Bearer soak-revenuecat-secret-0123456789';
export const SOAK_MEMORY_PATH = '/bench/memory';
/** Affiliates owed approved commissions for the payday (PayPal), paid by the operator's run. */
export const SOAK_PAYEES = 2_000;

export interface SoakReady {
  kind: string;
  publicUrl: string;
  payday: string;
  operator: { email: string; password: string };
}

async function main() {
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    // Every request of the generator names its own client (X-Forwarded-For): the per-IP limits
    // defend against one client, and the soak is many.
    TRUST_PROXY: 'true',
    REVENUECAT_WEBHOOK_AUTH: SOAK_WEBHOOK_AUTH,
    JOBS_ENABLED: 'true',
    IP_HASH_SECRET: 'soak-secret-soak-secret-soak-secret-0123',
    AUTH_SECRET: 'soak-auth-secret-soak-auth-secret-0123456',
    DATA_ENCRYPTION_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  });
  const { publicUrl } = config;
  const database = openDatabase({
    url: config.DATABASE_URL,
    pgliteDir: path.resolve(config.DATA_DIR, 'db'),
    // BENCH_PGLITE_THREAD=0: the embedded database on the server's own thread, for comparison.
    pgliteThread: process.env.BENCH_PGLITE_THREAD !== '0',
  });
  await migrate(database.sql);
  const { app, context } = await buildApp({ config, database, serveSite: false });
  app.get(SOAK_MEMORY_PATH, async () => process.memoryUsage());

  const payday = paydayFor(context.now());
  const { cutoff } = payoutPeriod(payday);
  await database.sql.query(
    `INSERT INTO affiliates (id, first_name, last_name, status, language, terms_accepted_at, created_at)
     SELECT 'soak-payee-' || g, 'Soak', 'Payee ' || g, 'active', 'en', $2::timestamptz - interval '200 days', $2::timestamptz - interval '200 days'
     FROM generate_series(1, $1::int) g`,
    [SOAK_PAYEES, cutoff.toISOString()],
  );
  await database.sql.query(
    `INSERT INTO payment_methods (id, affiliate_id, type, paypal_email)
     SELECT 'soak-method-' || g, 'soak-payee-' || g, 'paypal', 'payee' || g || '@paypal.example'
     FROM generate_series(1, $1::int) g`,
    [SOAK_PAYEES],
  );
  // 10 to 19 commissions of $2 each, approved before the payday's cut-off.
  await database.sql.query(
    `INSERT INTO conversions (source_event_id, app_user_id, affiliate_id, occurred_at, commission_cents, rate_tier, status, approved_at)
     SELECT 'soak-event-' || g || '-' || k, 'soak-user-' || g || '-' || k, 'soak-payee-' || g,
            $2::timestamptz - interval '45 days' + k * interval '1 hour', 200, 'standard', 'approved',
            $2::timestamptz - interval '10 days' + k * interval '1 hour'
     FROM generate_series(1, $1::int) g CROSS JOIN LATERAL generate_series(1, 10 + g % 10) k`,
    [SOAK_PAYEES, cutoff.toISOString()],
  );

  // The operator, as `npm run admin:create` makes one, its password chosen through the reset link.
  const operator = { email: 'soak-operator@example.com', password: 'soak operator password' };
  const setup = await createOperator(context, operator.email);
  const reset = await app.inject({
    method: 'POST',
    url: '/api/auth/reset-password',
    headers: { 'content-type': 'application/json', origin: publicUrl },
    payload: JSON.stringify({
      token: new URL(setup.setPasswordUrl).searchParams.get('token'),
      newPassword: operator.password,
    }),
  });
  if (reset.statusCode !== 200) throw new Error(`operator password: ${reset.body}`);

  await app.listen({ port: config.PORT, host: '127.0.0.1' });
  const scheduler = startScheduler(context, { jobs: SCHEDULED_JOBS.filter((job) => job.name !== 'monthly-payouts') });
  const ready: SoakReady = { kind: database.kind, publicUrl, payday, operator };
  process.send?.(ready);
  process.on('SIGTERM', () => {
    void scheduler
      .stop()
      .then(() => app.close())
      .then(() => database.close())
      .then(() => process.exit(0));
  });
}

// Started as the benchmark's server process (bench/soak.bench.ts imports the constants above only).
if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
