import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { ingestRevenueCatEvent, recordRefusedEvent } from '../features/attribution/revenuecat-ingest.ts';
import { parseRevenueCatWebhook } from '../features/attribution/revenuecat-event.ts';
import { sameSecret } from '../lib/secrets.ts';
import { redactPersonalData } from '../lib/logging.ts';
import { sendCallableError } from './callable.ts';

// RevenueCat's webhook (docs/product/attribution.md#conversions): subscription events become conversions and refunds.
// RevenueCat sends the Authorization header configured in its dashboard (REVENUECAT_WEBHOOK_AUTH).
// It retries until it gets a 200: a malformed body is answered 400 (retrying cannot fix it) and
// logged; a failure of ours is a 500, so the event comes again and is applied then.

export const REVENUECAT_WEBHOOK_PATH = '/api/webhooks/revenuecat';
/** Events with many subscriber attributes run to a few tens of KB. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

/** RevenueCat's event types: the metrics label others as `other` (the label's values stay a known set). */
const EVENT_TYPES = new Set([
  'TEST',
  'INITIAL_PURCHASE',
  'RENEWAL',
  'CANCELLATION',
  'UNCANCELLATION',
  'NON_RENEWING_PURCHASE',
  'SUBSCRIPTION_PAUSED',
  'SUBSCRIPTION_EXTENDED',
  'EXPIRATION',
  'BILLING_ISSUE',
  'PRODUCT_CHANGE',
  'TRANSFER',
  'TEMPORARY_ENTITLEMENT_GRANT',
  'REFUND_REVERSED',
  'INVOICE_ISSUANCE',
  'VIRTUAL_CURRENCY_TRANSACTION',
  'SUBSCRIBER_ALIAS',
]);

/** The event type as the metrics label it; `unknown` before the body is read. */
function typeLabel(type: string | undefined): string {
  if (type === undefined) return 'unknown';
  return EVENT_TYPES.has(type) ? type : 'other';
}

export function registerRevenueCatWebhook(app: FastifyInstance, ctx: AppContext) {
  app.register(async (scope) => {
    // The body is read as text and parsed here, whatever its media type, so that every malformed
    // body is answered and logged the same way.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    );

    // Before the body is read: an unauthenticated sender gets nothing parsed.
    scope.addHook('onRequest', async (request, reply) => {
      const expected = ctx.config.REVENUECAT_WEBHOOK_AUTH;
      if (!expected) {
        ctx.metrics.webhookEvent('unknown', 'not-configured');
        return sendCallableError(reply, 'unavailable', 'The RevenueCat webhook is not configured.');
      }
      const given = request.headers.authorization;
      if (typeof given !== 'string' || !sameSecret(given, expected)) {
        ctx.metrics.webhookEvent('unknown', 'unauthorized');
        request.log.warn(
          { hasAuthorization: typeof given === 'string' },
          'RevenueCat webhook refused: wrong authorization',
        );
        return sendCallableError(reply, 'unauthenticated', 'Wrong authorization.');
      }
    });

    // A body refused before the handler (too large, unreadable): the sender's mistake, answered as
    // the app's handler would and logged as one line without a stack — but as a warning, since it
    // may be an event RevenueCat sent that will never be applied. Anything else goes to the app's.
    scope.setErrorHandler((error, request, reply) => {
      const {
        statusCode: status = 500,
        code,
        message,
      } = error as { statusCode?: number; code?: string; message?: string };
      // Counted as an error by the handler, which knows the event's type.
      if (status < 400 || status >= 500 || status === 429) throw error;
      ctx.metrics.webhookEvent('unknown', 'malformed');
      request.log.warn(
        { statusCode: status, code },
        `malformed RevenueCat webhook: ${redactPersonalData(message ?? 'invalid request')}`,
      );
      return sendCallableError(reply, 'invalid-argument', 'Invalid request.', { code });
    });

    scope.post(REVENUECAT_WEBHOOK_PATH, { bodyLimit: WEBHOOK_BODY_LIMIT }, async (request, reply) => {
      const parsed = parseRevenueCatWebhook(typeof request.body === 'string' ? request.body : '');
      if (!parsed.ok) {
        if (parsed.refused) {
          // Well-formed but for its price: recorded as refused (the operators see it), answered 400.
          await recordRefusedEvent(ctx, parsed.refused.webhook, parsed.refused.payload);
          ctx.metrics.webhookEvent(typeLabel(parsed.refused.webhook.event.type), 'refused');
        } else ctx.metrics.webhookEvent('unknown', 'malformed');
        request.log.warn(
          { reason: redactPersonalData(parsed.reason), code: parsed.code },
          'malformed RevenueCat webhook',
        );
        const message = parsed.code === 'price-out-of-range' ? 'Price out of range.' : 'Malformed event.';
        return sendCallableError(reply, 'invalid-argument', message, { code: parsed.code, reason: parsed.reason });
      }
      const { event } = parsed.webhook;
      let ingested: Awaited<ReturnType<typeof ingestRevenueCatEvent>>;
      try {
        ingested = await ingestRevenueCatEvent(ctx, parsed.webhook, parsed.payload);
      } catch (error) {
        ctx.metrics.webhookEvent(typeLabel(event.type), 'error');
        throw error;
      }
      const { outcome, conversionId } = ingested;
      ctx.metrics.webhookEvent(typeLabel(event.type), outcome);
      request.log.info({ eventId: event.id, type: event.type, outcome, conversionId }, 'RevenueCat event');
      return reply.code(200).send({ outcome });
    });
  });
}
