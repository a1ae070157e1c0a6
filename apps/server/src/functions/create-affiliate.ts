import { createAffiliateRequestSchema } from '@skanova/shared/affiliate/schemas';
import { webHeaders } from '../features/auth/web-headers.ts';
import { hit } from '../lib/rate-limiter.ts';
import { rateLimitClient } from '../lib/client-network.ts';
import { signUpAffiliate } from '../features/affiliate/signup.ts';
import { VISITOR_SESSION_COOKIE } from '@skanova/shared/site/constants';
import { validSessionId, visitorKey } from '../features/landing/visitor.ts';
import { defineCallable } from '../http/callable.ts';
import { CallableError } from '../lib/callable-error.ts';

/**
 * Affiliate signup (docs/product/routes-and-screens.md#affiliate-signup, docs/product/calls-and-data.md#server-functions createAffiliate): creates the sign-in account,
 * the affiliate profile and its payment method in one transaction, then starts the session.
 * Its own per-IP limit, in the database so that every server process shares it.
 */
export const createAffiliate = defineCallable({
  name: 'createAffiliate',
  input: createAffiliateRequestSchema,
  rateLimit: () => false,
  async handler(input, { app, request, reply }) {
    const allowed = await hit(app, {
      // An IPv6 client is its /64 (lib/client-network.ts).
      key: `signup:ip:${app.hashIdentifier(rateLimitClient(request.ip))}`,
      max: app.config.RATE_LIMIT_SIGNUP_PER_HOUR,
      windowSeconds: 60 * 60,
    });
    if (!allowed)
      throw new CallableError('resource-exhausted', 'Too many signups from this address. Please try again later.', {
        code: 'too-many-requests',
      });
    // The signup's origin, as keyed hashes, for the fraud review's self-referral signal: its IP, and
    // the browser's landing-page visitor key when it opened a referral link before (docs/product/review.md#signals).
    const sessionId = validSessionId(request.cookies[VISITOR_SESSION_COOKIE]);
    const result = await signUpAffiliate(app, input, webHeaders(request), {
      ipHash: app.hashIdentifier(request.ip),
      deviceHash:
        sessionId === undefined ? null : visitorKey(app.hashIdentifier, { sessionId, ip: request.ip, userAgent: '' }),
    });
    reply.header('set-cookie', result.setCookies);
    return { affiliateId: result.affiliateId, status: result.status };
  },
});
