import { betterAuth, type BetterAuthPlugin } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { admin, bearer } from 'better-auth/plugins';
import {
  AFFILIATE_RESET_PASSWORD_PAGE,
  AUTH_SESSION_SECONDS,
  PASSWORD_MAX_LENGTH,
  PASSWORD_RESET_TOKEN_SECONDS,
} from '@skanova/shared/affiliate/constants';
import { PASSWORD_MIN_LENGTH } from '@skanova/shared/affiliate/programme';
import { isLanguage } from '@skanova/shared/site/constants';
import { eq } from 'drizzle-orm';
import type { AppServices } from '../../services.ts';
import { affiliates, paymentMethods } from '../../db/schema/affiliates.ts';
import { authAccounts, authSessions, authUsers, authVerifications } from '../../db/schema/auth.ts';
import { affiliateEmail, sendInBackground } from '../../email/email-texts.ts';
import { AUDIT_AUTH_MODEL, auditAuthTable } from '../../domain/audit-log.ts';
import { OUTBOX_AUTH_MODEL, outboxAuthTable } from '../../email/outbox.ts';
import { WEBHOOK_EVENT_AUTH_MODEL, webhookEventAuthTable } from '../../webhooks/outbox.ts';
import { redactPersonalData } from '../../lib/logging.ts';
import { recordAffiliateActivity } from './activity.ts';
import { clearSignInLock } from './sign-in-lock.ts';
import { endResetLinks } from '../../domain/reset-links.ts';

// Sign-in accounts and sessions (docs/product/rules-and-constants.md#accounts-and-sessions): better-auth over the Drizzle adapter, e-mail and password,
// database sessions in httpOnly cookies for 30 days, password reset by e-mail, the admin plugin for
// roles and bans ("disabled"). Its own rate limiter is off: the routes in auth-routes.ts apply the
// database-backed limits of docs/product/rules-and-constants.md#sign-in-limits to every process (ADR 006).

/**
 * The affiliate profile, payment method and welcome e-mail are adapter models so signup can write
 * them in its transaction.
 */
const affiliateModels = {
  id: 'skanova-affiliate-models',
  schema: {
    affiliate: {
      fields: {
        userId: { type: 'string', required: true, references: { model: 'user', field: 'id' } },
        firstName: { type: 'string', required: true },
        lastName: { type: 'string', required: true },
        phone: { type: 'string', required: false },
        companyName: { type: 'string', required: false },
        website: { type: 'string', required: false },
        status: { type: 'string', required: true },
        language: { type: 'string', required: true },
        termsAcceptedAt: { type: 'date', required: true },
        // Set by signup from the application's clock (the database's default is the machine's).
        createdAt: { type: 'date', required: false },
        updatedAt: { type: 'date', required: false },
        // Keyed hashes the fraud review compares (docs/product/review.md#signals).
        emailHash: { type: 'string', required: false },
        signupIpHash: { type: 'string', required: false },
        signupDeviceHash: { type: 'string', required: false },
      },
    },
    paymentMethod: {
      fields: {
        affiliateId: { type: 'string', required: true, references: { model: 'affiliate', field: 'id' } },
        type: { type: 'string', required: true },
        paypalEmail: { type: 'string', required: false },
        bankName: { type: 'string', required: false },
        accountHolder: { type: 'string', required: false },
        ibanEncrypted: { type: 'string', required: false },
        bicEncrypted: { type: 'string', required: false },
        ibanLast4: { type: 'string', required: false },
        createdAt: { type: 'date', required: false },
        updatedAt: { type: 'date', required: false },
        payoutAccountHash: { type: 'string', required: false },
      },
    },
    ...OUTBOX_AUTH_MODEL,
    ...AUDIT_AUTH_MODEL,
    ...WEBHOOK_EVENT_AUTH_MODEL,
  },
} satisfies BetterAuthPlugin;

export function createAuth(app: AppServices, secret: string) {
  const { config } = app;
  return betterAuth({
    appName: config.BRAND_NAME,
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret,
    trustedOrigins: [config.publicOrigin],
    database: drizzleAdapter(app.database.db, {
      provider: 'pg',
      transaction: true,
      schema: {
        user: authUsers,
        session: authSessions,
        account: authAccounts,
        verification: authVerifications,
        affiliate: affiliates,
        paymentMethod: paymentMethods,
        emailOutbox: outboxAuthTable,
        auditEntry: auditAuthTable,
        webhookEvent: webhookEventAuthTable,
      },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      autoSignIn: true,
      resetPasswordTokenExpiresIn: PASSWORD_RESET_TOKEN_SECONDS,
      revokeSessionsOnPasswordReset: true,
      async sendResetPassword({ user, token }) {
        // Only the newest link works (domain/reset-links.ts): the ones sent before it end now.
        await endResetLinks(app, user.id, token);
        const profile = await app.database.db
          .select({ firstName: affiliates.firstName, language: affiliates.language })
          .from(affiliates)
          .where(eq(affiliates.userId, user.id))
          .limit(1);
        const lang = isLanguage(profile[0]?.language) ? profile[0].language : 'fr';
        const url = `${config.publicUrl}${AFFILIATE_RESET_PASSWORD_PAGE}?token=${encodeURIComponent(token)}&lang=${lang}`;
        const recipient = { email: user.email, language: lang, firstName: profile[0]?.firstName ?? null };
        const message = affiliateEmail(config.BRAND_NAME, recipient, 'passwordReset', (text) => ({
          paragraphs: [text('intro'), text('expiry', { minutes: PASSWORD_RESET_TOKEN_SECONDS / 60 }), text('ignore')],
          action: { label: text('action'), url },
        }));
        // Sent in the background: the answer must not reveal (by its timing) whether the address exists.
        void sendInBackground(app, message, 'password-reset');
      },
      // Whoever reset the password holds the mailbox: the failed sign-ins counted against the address
      // (by anyone, from anywhere) no longer keep its owner out. The reset ends every other link
      // (domain/reset-links.ts); the library has revoked the sessions (revokeSessionsOnPasswordReset).
      async onPasswordReset({ user }) {
        await endResetLinks(app, user.id);
        await clearSignInLock(app, user.email);
      },
    },
    session: {
      expiresIn: AUTH_SESSION_SECONDS,
      updateAge: 24 * 60 * 60,
    },
    // A session created (sign-in, signup) or renewed (in use, once a day) marks the affiliate active.
    // These hooks run after the library's transaction commits.
    databaseHooks: {
      session: {
        create: { after: (session) => recordAffiliateActivity(app, session.userId) },
        update: { after: (session) => recordAffiliateActivity(app, session.userId) },
      },
    },
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: 'sk',
      useSecureCookies: config.isHttps,
      ipAddress: { ipAddressHeaders: ['x-forwarded-for'] },
    },
    telemetry: { enabled: false },
    plugins: [admin({ defaultRole: 'affiliate', adminRoles: ['admin'] }), bearer(), affiliateModels],
    logger: {
      log: (level, message, ...args) => {
        const target =
          level === 'error'
            ? app.log.error.bind(app.log)
            : level === 'warn'
              ? app.log.warn.bind(app.log)
              : app.log.debug.bind(app.log);
        // The library's arguments may hold what a client sent (an address, a body): only errors
        // are kept, through the log's error serializer; the message is masked like any error's.
        const err = args.find((arg) => arg instanceof Error);
        target(err ? { err } : {}, `auth: ${redactPersonalData(message)}`);
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
