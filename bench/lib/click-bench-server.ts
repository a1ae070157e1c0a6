import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { migrate } from '../../apps/server/src/db/migrate.ts';
import { RECORD_VISITS_SQL } from '../../apps/server/src/features/landing/visit-batch.ts';
import { BENCH_CODES, NOOP_PATH, ROW_COUNT_PATH, SINGLE_INSERT_PATH } from './click-workload.ts';

// The click benchmark's server, in its own process so that the load generator does not share its
// event loop: the product (storePreInstallData, group commit, rate limit off) plus, for comparison,
// a bare route that stores the same visit with one single-row INSERT per request, and two routes that
// answer at once: one on the product's app (its hooks: security headers, the API's checks) and one
// on a bare Fastify instance on a second port (the HTTP stack's ceiling, the ratio's reference).
// These routes exist only here, never in the product.

const SINGLE_INSERT_SQL = `INSERT INTO clicks (
  tracking_id, type, code, session_id, visitor_key, ip_hash, user_agent, language, timezone, screen_resolution,
  platform, color_depth, device_memory, hardware_concurrency, client_timestamp, referrer, path, query, created_at
) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`;

interface VisitBody {
  data: {
    fingerprint: Record<string, string | number | null>;
    deeplink: { type: string; code: string | null };
    path: string;
    query: Record<string, string>;
  };
}

export interface ClickBenchReady {
  kind: string;
  /** Port of the bare Fastify instance. */
  barePort: number;
}

async function main() {
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_CLICKS_DISABLED: 'true',
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
  // Batches the visit writer sent, and their visits: the report's visits per commit.
  const batches = { statements: 0, visits: 0 };
  const query = database.sql.query.bind(database.sql);
  database.sql.query = (text, params, options) => {
    if (text === RECORD_VISITS_SQL) {
      batches.statements += 1;
      batches.visits += (params?.[0] as unknown[]).length;
    }
    return query(text, params, options);
  };
  for (const code of BENCH_CODES) {
    await database.sql.query(
      `WITH owner AS (INSERT INTO affiliates (id) VALUES ('bench') ON CONFLICT DO NOTHING) INSERT INTO referral_codes (code, affiliate_id) VALUES ($1, 'bench') ON CONFLICT DO NOTHING`,
      [code],
    );
  }
  const { app, context } = await buildApp({ config, database, serveSite: false });

  app.post(SINGLE_INSERT_PATH, async (request) => {
    const { fingerprint: f, deeplink, path, query } = (request.body as VisitBody).data;
    const trackingId = randomBytes(18).toString('base64url');
    await database.sql.query(SINGLE_INSERT_SQL, [
      trackingId,
      deeplink.type,
      deeplink.code?.toUpperCase() ?? null,
      f.sessionId,
      context.hashIdentifier(`session:${String(f.sessionId)}`),
      context.hashIdentifier(request.ip),
      f.userAgent,
      f.language,
      f.timezone,
      f.screenResolution,
      f.platform,
      f.colorDepth,
      f.deviceMemory,
      f.hardwareConcurrency,
      f.timestamp,
      f.referrer,
      path,
      JSON.stringify(query),
      context.now().toISOString(),
    ]);
    return { result: { trackingId } };
  });

  app.get(ROW_COUNT_PATH, async () => {
    const { rows } = await database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM clicks');
    return { rows: rows[0]?.n ?? 0, ...batches };
  });

  app.post(NOOP_PATH, async () => ({ result: null }));
  const bare = Fastify({ logger: false });
  bare.post(NOOP_PATH, async () => ({ result: null }));

  await app.listen({ port: config.PORT, host: '127.0.0.1' });
  const barePort = Number(process.env.BARE_PORT ?? 0);
  await bare.listen({ port: barePort, host: '127.0.0.1' });
  const address = bare.server.address();
  const ready: ClickBenchReady = {
    kind: database.kind,
    barePort: typeof address === 'object' && address ? address.port : barePort,
  };
  process.send?.(ready);
  process.on('SIGTERM', () => {
    void Promise.all([app.close(), bare.close()])
      .then(() => database.close())
      .then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
