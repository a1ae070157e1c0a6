import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { noInputSchema } from '@skanova/shared/callable/schemas';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { migrate } from '../../apps/server/src/db/migrate.ts';
import { STATS_FROM_ROWS_SQL, loadStatsWith } from '../../apps/server/src/features/affiliate/affiliate-stats.ts';
import { callableDefiner, registerCallables } from '../../apps/server/src/http/callable.ts';
import { STATS_SEED, seedStats } from '../seed-stats.ts';
import { REFERENCE_PATHS, type ReferenceFunctions } from './stats-references.ts';

// The dashboard benchmark's server, in its own process (the load generator must not share its event
// loop): the product with a seeded database. A few affiliates sign up through the real function so
// that the benchmark holds real session cookies; the seed then brings the database to 1,000
// affiliates and gives every one of them (those included) codes, visits and conversions.
//
// For comparison, the same process serves what a request costs short of the statistics: two functions
// registered as the product registers its own (same hooks, budget, body checks and answer), one
// answering at once, one after finding its signed-in caller (the session lookup, one statement), one
// reading the statistics as they were read before their totals (migrations/0016_dashboard_totals.sql:
// summed from the ledger's entries and the conversions at every request); and a route answering at
// once on a bare Fastify instance on a second port. These exist only here.

/** Affiliates whose sessions the benchmark uses, spread over the seeded population. */
export const SIGNED_IN_AFFILIATES = 40;

export interface StatsBenchReady {
  kind: string;
  cookies: string[];
  seedSeconds: number;
  seedSteps: Record<string, number>;
  /** What the measured affiliates hold, on average. */
  measured: { codes: number; countedClicks: number; conversions: number };
  /** Port of the bare Fastify instance (a no-op route at REFERENCE_PATHS.noop). */
  barePort: number;
}

async function main() {
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    // The load comes from one address; each request names its own client in X-Forwarded-For so that
    // the per-IP budget of the functions (a defence against one client) does not answer instead.
    TRUST_PROXY: 'true',
    RATE_LIMIT_SIGNUP_PER_HOUR: String(SIGNED_IN_AFFILIATES * 2),
    IP_HASH_SECRET: 'benchmark-secret-benchmark-secret-0123',
    AUTH_SECRET: 'benchmark-auth-secret-benchmark-auth-0123',
    DATA_ENCRYPTION_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  });
  const database = openDatabase({
    url: config.DATABASE_URL,
    pgliteDir: process.env.BENCH_PGLITE_DIR ?? 'memory://',
    // BENCH_PGLITE_THREAD=0: the embedded database on the server's own thread, for comparison.
    pgliteThread: process.env.BENCH_PGLITE_THREAD !== '0',
  });
  await migrate(database.sql);
  const { app, context } = await buildApp({ config, database, serveSite: false });
  const defineReference = callableDefiner<ReferenceFunctions>();
  registerCallables(app, context, [
    defineReference({ name: 'benchNoop', input: noInputSchema, handler: async () => null }),
    defineReference({ name: 'benchCaller', access: 'affiliate', input: noInputSchema, handler: async () => null }),
    defineReference({
      name: 'benchStatsFromRows',
      access: 'affiliate',
      input: noInputSchema,
      handler: async (_input, { app: appContext, caller }) =>
        loadStatsWith(appContext, caller.affiliateId, STATS_FROM_ROWS_SQL, 'affiliate-stats-from-rows'),
    }),
  ]);
  await app.ready();
  const bare = Fastify({ logger: false });
  bare.post(REFERENCE_PATHS.noop, async () => ({ result: null }));

  const cookies: string[] = [];
  const affiliateIds: string[] = [];
  for (let i = 0; i < SIGNED_IN_AFFILIATES; i++) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/fn/createAffiliate',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.200.0.${i}` },
      payload: JSON.stringify({
        data: {
          email: `bench-${i}@example.com`,
          password: 'benchmark password',
          firstName: 'Bench',
          lastName: `Signed-in ${i}`,
          paymentMethod: 'later',
          termsAccepted: true,
          language: 'fr',
        },
      }),
    });
    if (response.statusCode !== 200) throw new Error(`signup failed: ${response.body}`);
    const setCookie = response.headers['set-cookie'];
    cookies.push(
      (Array.isArray(setCookie) ? setCookie : [String(setCookie)]).map((line) => line.split(';', 1)[0]).join('; '),
    );
    affiliateIds.push((response.json() as { result: { affiliateId: string } }).result.affiliateId);
  }

  const started = performance.now();
  const seedSteps = await seedStats(database.sql, STATS_SEED);
  const seedSeconds = Math.round(performance.now() - started) / 1000;
  const { rows } = await database.sql.query<StatsBenchReady['measured']>(
    `SELECT avg((SELECT count(*) FROM referral_codes r WHERE r.affiliate_id = a.id))::float8 AS codes,
            avg((SELECT count(*) FROM click_counts cc JOIN referral_codes r ON r.id = cc.referral_code_id WHERE r.affiliate_id = a.id))::float8 AS "countedClicks",
            avg((SELECT count(*) FROM conversions c WHERE c.affiliate_id = a.id))::float8 AS conversions
     FROM affiliates a WHERE a.id = ANY($1::text[])`,
    [affiliateIds],
  );

  await app.listen({ port: config.PORT, host: '127.0.0.1' });
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareAddress = bare.server.address();
  const ready: StatsBenchReady = {
    kind: database.kind,
    cookies,
    seedSeconds,
    seedSteps,
    measured: rows[0] ?? { codes: 0, countedClicks: 0, conversions: 0 },
    barePort: typeof bareAddress === 'object' && bareAddress ? bareAddress.port : 0,
  };
  process.send?.(ready);
  process.on('SIGTERM', () => {
    // Requests the load generator abandoned when its time ran out are still being answered: the
    // database closes after them, not under them.
    void Promise.all([app.close(), bare.close()])
      .then(() => new Promise((resolve) => setTimeout(resolve, 500)))
      .then(() => database.close())
      .then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
