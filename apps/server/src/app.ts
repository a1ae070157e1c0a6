import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { ERROR_STATUS, type ErrorCode } from '@skanova/shared/callable/errors';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import type { Database } from './db/client.ts';
import { visitQueueLength, closeVisitWriter } from './features/landing/visit-writer.ts';
import { callables } from './functions/index.ts';
import { isApiPath, registerCallables, sendCallableError } from './http/callable.ts';
import { rateLimitClient } from './lib/client-network.ts';
import { CallableError } from './lib/callable-error.ts';
import { sharedRateLimitStore } from './lib/shared-rate-limit.ts';
import { registerMarketingAssets } from './http/marketing-assets.ts';
import { registerRevenueCatWebhook } from './http/revenuecat-webhook.ts';
import { registerSeo } from './http/seo.ts';
import { loadSite, registerSite } from './http/site.ts';
import { registerStudioOffline } from './http/studio-offline.ts';
import { registerVitals } from './http/vitals.ts';
import { registerHealth } from './http/health.ts';
import { registerMetrics } from './http/metrics.ts';
import { outboxDepth } from './email/outbox.ts';
import { loggerOptions, redactPersonalData, requestAwareLogger, runWithRequestLog } from './lib/logging.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { createMailer, type Mailer } from './lib/mailer.ts';
import { createAppMetrics } from './lib/metrics.ts';
import { createHasher, resolveSecret } from './lib/secrets.ts';
import { createAuth } from './features/auth/auth.ts';
import { registerAuthRoutes } from './features/auth/auth-routes.ts';
import { createFieldCipher, parseEncryptionKey } from './lib/encryption.ts';

/** The prerendered site unless WEB_BUILD_DIR names another build (e.g. the development one). */
const DEFAULT_WEB_BUILD_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/build');

/** Request bodies above this are refused (the largest legitimate one, a contact message, is ~20 KB). */
const BODY_LIMIT_BYTES = 64 * 1024;

export interface BuildAppOptions {
  config: Config;
  database: Database;
  mailer?: Mailer;
  now?: () => Date;
  /** Serve the prerendered site (tests of the API alone can skip the build). */
  serveSite?: boolean;
  /** Logger options over the server's own (level, serializers): a test's stream; `false` for none. */
  logger?: FastifyServerOptions['logger'];
}

/** Builds the whole product (site + API) without listening: tests use `app.inject()`. */
export async function buildApp(options: BuildAppOptions): Promise<{ app: FastifyInstance; context: AppContext }> {
  const { config, database } = options;
  const app = Fastify({
    logger: loggerOptions(config.LOG_LEVEL, options.logger),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: parseTrustProxy(config.TRUST_PROXY),
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  });
  const testClock = config.TEST_CLOCK && !options.now ? createTestClock() : undefined;
  const now = options.now ?? testClock?.now ?? (() => new Date());
  const embedded = database.kind === 'pglite';
  // Every line logged while a request is served carries its id, through the app's services too.
  app.addHook('onRequest', (request, _reply, done) => runWithRequestLog(request.log, done));
  const log = requestAwareLogger(app.log);
  const base: Omit<AppContext, 'auth'> = {
    config,
    database,
    mailer:
      options.mailer ??
      createMailer({
        smtpUrl: config.SMTP_URL,
        from: config.MAIL_FROM,
        outboxDir: path.resolve(config.DATA_DIR, 'outbox'),
        log: (line) => log.info(line),
      }),
    hashIdentifier: createHasher(resolveSecret('IP_HASH_SECRET', config.IP_HASH_SECRET, config.DATA_DIR, embedded)),
    now,
    log,
    metrics: createAppMetrics({
      defaults: config.METRICS_TOKEN !== undefined,
      sources: {
        outbox: () => outboxDepth(base),
        clickQueue: () => visitQueueLength(context),
        pool: () => database.poolUse(),
      },
    }),
    cipher: createFieldCipher(
      parseEncryptionKey(resolveSecret('DATA_ENCRYPTION_KEY', config.DATA_ENCRYPTION_KEY, config.DATA_DIR, embedded)),
      (config.DATA_ENCRYPTION_PREVIOUS_KEYS ?? '')
        .split(',')
        .filter((key) => key.trim() !== '')
        .map(parseEncryptionKey),
    ),
  };
  const context: AppContext = {
    ...base,
    auth: createAuth(base, resolveSecret('AUTH_SECRET', config.AUTH_SECRET, config.DATA_DIR, embedded)),
  };

  await app.register(fastifyCookie);
  registerSecurityHeaders(app, {
    // Pages replace this with their own policy (inline-script hashes); API answers need nothing.
    contentSecurityPolicy: { directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"] } },
    strictTransportSecurity: config.isHttps ? { maxAge: ONE_YEAR, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    xFrameOptions: { action: 'deny' },
  });
  const sharedLimits = database.kind === 'postgres' ? sharedRateLimitStore(base) : undefined;
  await app.register(fastifyRateLimit, {
    global: false,
    // An IPv6 client is its /64 (lib/client-network.ts).
    keyGenerator: (request) => rateLimitClient(request.ip),
    // On PostgreSQL the limits are counted in the database, shared by every process; a counting
    // failure lets the request through (it is logged) rather than failing it.
    ...(sharedLimits ? { store: sharedLimits.Store, skipOnError: true } : {}),
    errorResponseBuilder: (_request, context) => {
      const error = new CallableError('resource-exhausted', `Too many requests. Retry in ${context.after}.`, {
        code: 'resource-exhausted',
      });
      return Object.assign(error, { statusCode: 429 });
    },
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof CallableError) {
      if (error.code === 'internal') request.log.error({ err: error }, 'callable failed');
      return sendCallableError(reply, error.code, error.message, error.details);
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status === 429) return sendCallableError(reply, 'resource-exhausted', 'Too many requests.');
    if (status >= 400 && status < 500) {
      // Malformed JSON, wrong media type, body too large, schema mismatch: the client's mistake,
      // logged as one line without a stack (nothing of ours to debug).
      const { code, message } = error as { code?: string; message?: string };
      // The message may quote what the client sent (a media type, a header): masked like an error's.
      request.log.info(
        { statusCode: status, code },
        `client error: ${redactPersonalData(message ?? 'invalid request')}`,
      );
      return sendCallableError(reply, clientErrorCode(status), 'Invalid request.', { code });
    }
    request.log.error({ err: error, reqId: request.id }, 'unexpected error');
    return sendCallableError(reply, 'internal', `An internal error occurred (request ${request.id}).`);
  });

  app.setNotFoundHandler((request, reply) => {
    if (isApiPath(request.url)) return sendCallableError(reply, 'not-found', 'No such endpoint.');
    return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
  });

  registerHealth(app, context);
  registerMetrics(app, context);
  if (testClock) registerTestClock(app, testClock);
  registerAuthRoutes(app, context);
  registerCallables(app, context, callables);
  registerVitals(app, context);
  registerMarketingAssets(app, context);
  registerRevenueCatWebhook(app, context);
  registerSeo(app, context);
  if (options.serveSite !== false) {
    const site = loadSite(path.resolve(config.WEB_BUILD_DIR ?? DEFAULT_WEB_BUILD_DIR), config, now);
    await registerSite(app, site);
    registerStudioOffline(app, site, config);
  }

  // Visit recording batches its writes (group commit): commit what is queued before the database closes.
  app.addHook('onClose', async () => closeVisitWriter(context));
  // The hits of the periodically counted limits still in memory (lib/shared-rate-limit.ts).
  if (sharedLimits) app.addHook('onClose', async () => sharedLimits.flush());
  app.addHook('onClose', async () => context.mailer.close());
  app.addHook('onClose', async () => context.metrics.close());
  return { app, context };
}

const ONE_YEAR = 31_536_000;

/** A clock that end-to-end tests move forward (TEST_CLOCK, refused in production by the config). */
function createTestClock() {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(ms: number) {
      offsetMs += ms;
    },
  };
}

/**
 * `POST /api/test/clock` `{ "advanceMs": n }` moves the clock forward and answers the new time. The
 * clock stays within 2000–2099 (UTC): beyond, dates stop being valid for JavaScript and PostgreSQL
 * (an "Invalid Date" would break every request after it) and no test needs them.
 */
function registerTestClock(app: FastifyInstance, clock: ReturnType<typeof createTestClock>) {
  const earliest = Date.UTC(2000, 0, 1);
  const latest = Date.UTC(2100, 0, 1) - 1;
  app.post('/api/test/clock', async (request, reply) => {
    const advanceMs = (request.body as { advanceMs?: unknown } | null)?.advanceMs;
    const target = typeof advanceMs === 'number' ? clock.now().getTime() + advanceMs : Number.NaN;
    if (!Number.isSafeInteger(advanceMs) || (advanceMs as number) < 0 || !(target >= earliest && target <= latest)) {
      return sendCallableError(
        reply,
        'invalid-argument',
        'advanceMs must be a non-negative integer that keeps the clock within 2000–2099.',
      );
    }
    clock.advance(advanceMs as number);
    return { now: clock.now().toISOString() };
  });
}

function clientErrorCode(status: number): ErrorCode {
  const byStatus = Object.entries(ERROR_STATUS).find(([, value]) => value === status)?.[0] as ErrorCode | undefined;
  return byStatus === 'unauthenticated' || byStatus === 'permission-denied' || byStatus === 'not-found'
    ? byStatus
    : 'invalid-argument';
}

/** TRUST_PROXY: unset/false, true, a hop count, or a comma-separated list of proxy addresses/CIDRs. */
function parseTrustProxy(value: string | undefined): boolean | string | ((address: string, hop: number) => boolean) {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return value;
}
