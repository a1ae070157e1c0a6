import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { ingestRevenueCatEvent } from '../features/attribution/revenuecat-ingest.ts';
import { parseRevenueCatWebhook } from '../features/attribution/revenuecat-event.ts';
import { sendCallableError } from './callable.ts';

// RevenueCat's webhook (BRIEF §1, §5.6): subscription events become conversions and refunds.
// RevenueCat sends the Authorization header configured in its dashboard (REVENUECAT_WEBHOOK_AUTH).
// It retries until it gets a 200: a malformed body is answered 400 (retrying cannot fix it) and
// logged; a failure of ours is a 500, so the event comes again and is applied then.

export const REVENUECAT_WEBHOOK_PATH = '/api/webhooks/revenuecat';
/** Events with many subscriber attributes run to a few tens of KB. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

/** Compares in constant time, whatever the lengths: both sides are hashed to 32 bytes first. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
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
      if (!expected) return sendCallableError(reply, 'unavailable', 'The RevenueCat webhook is not configured.');
      const given = request.headers.authorization;
      if (typeof given !== 'string' || !sameSecret(given, expected)) {
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
      if (status < 400 || status >= 500 || status === 429) throw error;
      request.log.warn({ statusCode: status, code }, `malformed RevenueCat webhook: ${message ?? 'invalid request'}`);
      return sendCallableError(reply, 'invalid-argument', 'Invalid request.', { code });
    });

    scope.post(REVENUECAT_WEBHOOK_PATH, { bodyLimit: WEBHOOK_BODY_LIMIT }, async (request, reply) => {
      const parsed = parseRevenueCatWebhook(typeof request.body === 'string' ? request.body : '');
      if (!parsed.ok) {
        request.log.warn({ reason: parsed.reason }, 'malformed RevenueCat webhook');
        return sendCallableError(reply, 'invalid-argument', 'Malformed event.', { reason: parsed.reason });
      }
      const { event } = parsed.webhook;
      const { outcome, conversionId } = await ingestRevenueCatEvent(ctx, parsed.webhook, parsed.payload);
      request.log.info({ eventId: event.id, type: event.type, outcome, conversionId }, 'RevenueCat event');
      return reply.code(200).send({ outcome });
    });
  });
}
