import { runWithTransaction } from '@better-auth/core/context';
import { getCurrentAdapter } from 'better-auth';
import { APIError } from 'better-auth/api';
import type { CreateAffiliateInput } from '@skanova/shared/affiliate/schemas';
import {
  paymentMethodFieldErrors,
  validatePaymentMethod,
  type ValidPaymentMethod,
} from '@skanova/shared/affiliate/payment-method';
import type { Language } from '@skanova/shared/site/constants';
import type { AppContext } from '../../context.ts';
import { CallableError } from '../../lib/callable-error.ts';
import { welcomeEmail } from '../../email/affiliate-messages.ts';
import { enqueueEmailThroughAuth } from '../../email/outbox.ts';
import { sendQueuedNow } from '../../email/outbox-worker.ts';
import { paymentMethodAccountHash, sealPaymentMethod } from '../../domain/payment-method-store.ts';
import { inTransaction } from '../../db/transaction.ts';
import { checkDisposableEmail, checkSharedPayoutAccount, emailHash } from '../../domain/review-signals.ts';
import { applicationEvents } from '../../webhooks/events.ts';
import { enqueueWebhookEventsThroughAuth } from '../../webhooks/outbox.ts';
import { signalWebhookEvents } from '../../webhooks/signal.ts';

// Signup is one database transaction (docs/product/rules-and-constants.md#accounts-and-sessions): the auth library's user, account and session, the
// affiliate profile, the welcome e-mail (queued in the outbox), the payment method, the audit
// entry and the webhook events (docs/product/webhooks.md#events) commit or roll back together. The
// library's own transaction joins the outer one; the profile rows go through its adapter, which
// holds that transaction (a plain query here would wait for the connection the transaction holds).
// Once committed, the welcome e-mail is sent at once and the webhook worker is woken.

export interface SignupResult {
  affiliateId: string;
  userId: string;
  status: 'pending' | 'active';
  /** Session cookies to forward once the transaction has committed. */
  setCookies: string[];
}

/** The signup's origin as keyed hashes (docs/product/review.md#signals): its IP, and its browser's landing-page visitor key when it has one. */
export interface SignupOrigin {
  ipHash: string;
  deviceHash: string | null;
}

export async function signUpAffiliate(
  app: AppContext,
  input: CreateAffiliateInput,
  headers: Headers,
  origin: SignupOrigin,
): Promise<SignupResult> {
  const payment = input.paymentMethod === 'later' ? null : requireValid(input.paymentMethod, input.paymentDetails);
  const status = app.config.AFFILIATE_APPROVAL === 'manual' ? 'pending' : 'active';
  const language: Language = input.language ?? 'fr';
  const authContext = await app.auth.$context;
  const now = app.now();

  const result = await runWithTransaction(authContext.adapter, async () => {
    const signUp = await app.auth.api.signUpEmail({
      body: { email: input.email, password: input.password, name: `${input.firstName} ${input.lastName}` },
      headers,
      returnHeaders: true,
    });
    const adapter = await getCurrentAdapter(authContext.adapter);
    const affiliate = await adapter.create<Record<string, unknown>, { id: string }>({
      model: 'affiliate',
      data: {
        userId: signUp.response.user.id,
        firstName: input.firstName,
        lastName: input.lastName,
        phone: input.phone,
        companyName: input.companyName,
        website: input.website,
        status,
        language,
        termsAcceptedAt: now,
        // The application's clock, like every other date of the account (tests and the demo move it).
        createdAt: now,
        updatedAt: now,
        emailHash: emailHash(app, input.email),
        signupIpHash: origin.ipHash,
        signupDeviceHash: origin.deviceHash,
      },
    });
    const welcome = welcomeEmail(
      app,
      { email: signUp.response.user.email, language, firstName: input.firstName },
      { status },
    );
    await enqueueEmailThroughAuth(adapter, welcome, { kind: 'welcome', dedupeKey: welcomeKey(affiliate.id) });
    if (payment) {
      await adapter.create({
        model: 'paymentMethod',
        data: {
          affiliateId: affiliate.id,
          ...sealPaymentMethod(app, payment),
          payoutAccountHash: paymentMethodAccountHash(app, payment),
          createdAt: now,
          updatedAt: now,
        },
      });
    }
    await adapter.create({
      model: 'auditEntry',
      forceAllowId: true,
      data: {
        id: affiliate.id,
        actor: signUp.response.user.id,
        action: 'affiliate.signup',
        details: { status, paymentMethod: payment?.type ?? null },
        createdAt: now,
      },
    });
    await enqueueWebhookEventsThroughAuth(adapter, applicationEvents(affiliate.id, status), now);
    return { affiliateId: affiliate.id, userId: signUp.response.user.id, setCookies: signUp.headers.getSetCookie() };
  }).catch((error: unknown) => {
    if (error instanceof APIError && /USER_ALREADY_EXISTS/.test(String(error.body?.code))) {
      throw new CallableError('already-exists', 'An account already exists with this e-mail address.', {
        code: 'email-taken',
        fields: [{ path: 'email', key: 'auth:errors.emailTaken' }],
      });
    }
    if (error instanceof APIError && error.statusCode < 500) {
      throw new CallableError('invalid-argument', 'Invalid information provided.', {
        code: 'invalid-argument',
        reason: error.body?.code,
      });
    }
    throw error;
  });

  await sendQueuedNow(app, [welcomeKey(result.affiliateId)]);
  await reviewSignup(app, result.affiliateId, input.email, payment !== null);
  signalWebhookEvents();
  return { ...result, status };
}

/**
 * The signup's fraud signals (docs/product/review.md#signals): a disposable-address domain, a payout
 * account another affiliate has. After the signup's transaction (the auth library's adapter holds its
 * connection until then), in one of their own: the account exists whatever they find, and a failure
 * here is logged, never the signup's.
 */
async function reviewSignup(app: AppContext, affiliateId: string, email: string, hasPayment: boolean): Promise<void> {
  await inTransaction(app, async (tx) => {
    const at = app.now();
    await checkDisposableEmail(tx, app, { affiliateId, email, at });
    if (hasPayment) await checkSharedPayoutAccount(tx, app, { affiliateId, at });
  }).catch((error: unknown) => app.log.error({ err: error }, 'signup review signals failed'));
}

/** One welcome e-mail per profile. */
function welcomeKey(affiliateId: string): string {
  return `welcome:${affiliateId}`;
}

function requireValid(method: string, details: unknown): ValidPaymentMethod {
  const result = validatePaymentMethod(method, details ?? {});
  if (!result.ok)
    throw new CallableError('invalid-argument', 'Invalid payment details.', {
      code: result.code,
      fields: paymentMethodFieldErrors(result),
    });
  return result.value;
}
