import { z } from 'zod';
import { STUDIO_HOME } from '@skanova/shared/studio/constants';

// Configuration comes from the environment only, validated once at start (see .env.example).

const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.url().optional())
  .optional();

const boolFromEnv = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    PUBLIC_URL: z.url().optional(),
    DATABASE_URL: z
      .string()
      .trim()
      .transform((v) => (v === '' ? undefined : v))
      .pipe(
        z
          .string()
          .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
          .optional(),
      )
      .optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    /** The prerendered site to serve; default apps/web/build (tests and benchmarks point at other builds). */
    WEB_BUILD_DIR: z.string().min(1).optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TRUST_PROXY: z.string().optional(),
    /** Bearer token of `GET /metrics` (Prometheus); unset = no metrics (the route answers 404). */
    METRICS_TOKEN: z
      .string()
      .trim()
      .transform((v) => (v === '' ? undefined : v))
      .pipe(z.string().min(16, 'must be at least 16 characters').optional())
      .optional(),
    /**
     * Server processes sharing the port (node:cluster); 1 = this process serves alone. PostgreSQL
     * only (docs/operations-processes.md).
     */
    WORKERS: z.coerce.number().int().min(1).max(64).default(1),
    /** On SIGTERM/SIGINT, how long requests and the job under way get to finish before the process exits anyway. */
    SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(25_000),
    /**
     * On SIGTERM/SIGINT, how long the process goes on accepting connections while /readyz answers 503,
     * for a load balancer to notice (within SHUTDOWN_GRACE_MS).
     */
    SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).default(0),

    BRAND_NAME: z.string().trim().min(1).max(60).default('Skanova'),
    APP_URL_SCHEME: z
      .string()
      .regex(/^[a-z][a-z0-9+.-]*:\/\/$/, 'must look like "skanova://"')
      .default('skanova://'),
    APP_STORE_URL: z.url().default('https://apps.apple.com/app/skanova/id0000000000'),
    PLAY_STORE_URL: z.url().default('https://play.google.com/store/apps/details?id=com.skanova.app'),
    /** The web app; default: this site's own /studio (ADR 010). */
    WEB_APP_URL: optionalUrl,
    INSTAGRAM_URL: z.url().default('https://www.instagram.com/skanova'),
    TWITTER_URL: z.url().default('https://twitter.com/skanova'),
    FACEBOOK_URL: z.url().default('https://www.facebook.com/skanova'),
    LINKEDIN_URL: z.url().default('https://www.linkedin.com/company/skanova'),
    SUPPORT_EMAIL: z.email().default('support@skanova.com'),
    SUPPORT_PHONE: z
      .string()
      .trim()
      .regex(/^$|^\+?[0-9 ().-]{6,30}$/, 'must be a phone number such as "+33 1 23 45 67 89"')
      .optional(),
    LIVE_CHAT_URL: optionalUrl,
    COMPANY_ADDRESS: z.string().trim().max(200).default('Skanova SAS, Paris, France'),
    DPO_EMAIL: z.email().default('privacy@skanova.com'),

    SMTP_URL: optionalUrl.or(z.string().regex(/^smtps?:\/\//)).optional(),
    MAIL_FROM: z.string().min(3).default('Skanova <no-reply@skanova.com>'),

    /** Keyed hash of client IPs (raw IPs are never stored). Generated into DATA_DIR for the embedded database. */
    IP_HASH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),

    /** Signs sessions and tokens of the auth library. Generated into DATA_DIR for the embedded database. */
    AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    /** AES-256 key (32 bytes, base64 or hex) for IBAN and BIC at rest. Generated into DATA_DIR for the embedded database. */
    DATA_ENCRYPTION_KEY: z.string().min(32, 'must be 32 bytes in base64 or hex').optional(),
    /** Earlier keys, comma-separated, still read after a rotation. */
    DATA_ENCRYPTION_PREVIOUS_KEYS: z.string().optional(),
    /** `auto`: new affiliates are active at once; `manual`: an operator approves them (docs/product/rules-and-constants.md#applications-and-disabled-accounts). */
    AFFILIATE_APPROVAL: z.enum(['auto', 'manual']).default('auto'),

    /** Sign-in attempts per client IP per minute (docs/product/rules-and-constants.md#sign-in-limits: 5). */
    RATE_LIMIT_SIGNIN_PER_MINUTE: z.coerce.number().int().min(1).default(5),
    /** Failed sign-in attempts per e-mail address per hour (docs/product/rules-and-constants.md#sign-in-limits: 10). */
    RATE_LIMIT_SIGNIN_PER_EMAIL_PER_HOUR: z.coerce.number().int().min(1).default(10),
    /** Affiliate signups per client IP per hour. */
    RATE_LIMIT_SIGNUP_PER_HOUR: z.coerce.number().int().min(1).default(10),
    /** Password-reset requests per client IP, and per e-mail address, per hour. */
    RATE_LIMIT_PASSWORD_RESET_PER_HOUR: z.coerce.number().int().min(1).default(5),
    RATE_LIMIT_CONTACT_PER_HOUR: z.coerce.number().int().min(1).default(5),
    RATE_LIMIT_CLICKS_PER_MINUTE: z.coerce.number().int().min(0).default(120),
    /** Turns the click rate limit off (benchmarks only). */
    RATE_LIMIT_CLICKS_DISABLED: boolFromEnv,
    VITALS_SAMPLE_RATE: z.coerce.number().min(0).max(1).default(1),
    /** Install attributions per client IP per minute (the app's first launch). */
    RATE_LIMIT_ATTRIBUTION_PER_MINUTE: z.coerce.number().int().min(1).default(60),

    /** The exact Authorization header value RevenueCat sends with its webhooks; unset = webhook refused (503). */
    REVENUECAT_WEBHOOK_AUTH: z.string().trim().min(16, 'must be at least 16 characters').optional(),
    /** Count RevenueCat sandbox events (testing only). */
    REVENUECAT_ACCEPT_SANDBOX: boolFromEnv,

    /** The company's account that SEPA credit transfers are paid from (docs/product/money.md#payouts). */
    PAYOUT_DEBTOR_NAME: z.string().trim().min(1).max(70).default('Skanova SAS'),
    PAYOUT_DEBTOR_IBAN: z.string().trim().default('FR7630006000011234567890189'),
    PAYOUT_DEBTOR_BIC: z.string().trim().default('AGRIFRPPXXX'),
    /** SEPA export format: pain.001.001.09 (current EPC guidelines) or the older .03. */
    SEPA_PAIN_VERSION: z.enum(['pain.001.001.09', 'pain.001.001.03']).default('pain.001.001.09'),

    /** Run the scheduled jobs (approval, payouts, retention, e-mail) in this process. */
    JOBS_ENABLED: z
      .enum(['true', 'false', '1', '0', ''])
      .optional()
      .transform((v) => v === undefined || v === '' || v === 'true' || v === '1'),
    /** How often the scheduler looks for due jobs, in milliseconds. */
    JOBS_TICK_MS: z.coerce.number().int().min(100).default(30_000),
    /**
     * Outgoing webhooks may reach loopback, private, link-local and other non-public addresses
     * (docs/product/webhooks.md#the-address-guard): tests and development, with a receiver on this machine.
     */
    WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: boolFromEnv,
    /** Lets end-to-end tests move the server's clock (POST /api/test/clock). Refused in production. */
    TEST_CLOCK: boolFromEnv,
  })
  .superRefine((env, ctx) => {
    // Several processes share one PostgreSQL: they must hash identifiers with the same key, so it
    // cannot be generated locally as it is for the embedded database.
    if (env.DATABASE_URL && !env.IP_HASH_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['IP_HASH_SECRET'],
        message: 'is required when DATABASE_URL is set (every server process must share it)',
      });
    }
    if (env.DATABASE_URL && !env.AUTH_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['AUTH_SECRET'],
        message: 'is required when DATABASE_URL is set (every server process must share it)',
      });
    }
    if (env.WORKERS > 1 && !env.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['WORKERS'],
        message:
          'above 1 needs PostgreSQL (DATABASE_URL): the embedded database belongs to one process. Unset WORKERS, or set DATABASE_URL',
      });
    }
    if (env.SHUTDOWN_DELAY_MS > 0 && env.SHUTDOWN_DELAY_MS >= env.SHUTDOWN_GRACE_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['SHUTDOWN_DELAY_MS'],
        message: 'must be less than SHUTDOWN_GRACE_MS (the delay is part of the grace period)',
      });
    }
    if (env.TEST_CLOCK && env.NODE_ENV === 'production') {
      ctx.addIssue({ code: 'custom', path: ['TEST_CLOCK'], message: 'cannot be set in production' });
    }
    if (env.DATABASE_URL && !env.DATA_ENCRYPTION_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATA_ENCRYPTION_KEY'],
        message: 'is required when DATABASE_URL is set (the generated key is for the embedded database only)',
      });
    }
  });

export type Env = z.infer<typeof envSchema>;

export interface Config extends Omit<Env, 'WEB_APP_URL'> {
  WEB_APP_URL: string;
  publicUrl: string;
  publicOrigin: string;
  isHttps: boolean;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}\nSee .env.example for every variable.`);
  }
  const value = parsed.data;
  const publicUrl = (value.PUBLIC_URL ?? `http://localhost:${value.PORT}`).replace(/\/+$/, '');
  const url = new URL(publicUrl);
  return {
    ...value,
    WEB_APP_URL: value.WEB_APP_URL ?? `${publicUrl}${STUDIO_HOME}`,
    publicUrl,
    publicOrigin: url.origin,
    isHttps: url.protocol === 'https:',
  };
}
