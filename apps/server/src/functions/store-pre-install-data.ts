import { TRACKING_ID_COOKIE, VISITOR_SESSION_COOKIE } from '@skanova/shared/site/constants';
import { TRACKING_COOKIE_DAYS, VISITOR_SESSION_COOKIE_DAYS } from '@skanova/shared/site/timing';
import { preInstallRequestSchema } from '@skanova/shared/landing/schemas';
import { isBotVisit } from '../features/landing/bot-detection.ts';
import { visitWriterFor } from '../features/landing/visit-writer.ts';
import { hourBucket, newSessionId, newTrackingId, validSessionId, visitorKey } from '../features/landing/visitor.ts';
import { defineCallable } from '../http/callable.ts';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { inTransaction } from '../db/transaction.ts';
import { isDataCentreAgent } from '../domain/data-centre-agents.ts';
import { markSelfVisit } from '../domain/review-signals.ts';
import { resolveCaller } from '../features/auth/caller.ts';

// The landing page records each visit (docs/product/calls-and-data.md#visit-record device fingerprint + deep-link payload, §7) and gets a
// tracking id back, which the app later uses for attribution (docs/product/attribution.md#install-attribution). Click rules: docs/product/attribution.md#visits-and-counted-clicks.

const DAY_SECONDS = 86_400;

export const storePreInstallData = defineCallable({
  name: 'storePreInstallData',
  input: preInstallRequestSchema,
  // Generous and configurable: when it trips, the page still continues to the store (docs/product/attribution.md#visits-and-counted-clicks).
  rateLimit: (ctx) =>
    ctx.config.RATE_LIMIT_CLICKS_DISABLED
      ? false
      : { max: ctx.config.RATE_LIMIT_CLICKS_PER_MINUTE, timeWindow: '1 minute' },
  async handler(input, { app, request, reply }) {
    const { fingerprint, deeplink } = input;
    const cookieSessionId = validSessionId(request.cookies[VISITOR_SESSION_COOKIE]);
    // The cookie is the visitor's session; on a first visit, the id the page generated becomes it.
    const sessionId = cookieSessionId ?? validSessionId(fingerprint.sessionId);
    const headerUserAgent = request.headers['user-agent'];
    const createdAt = app.now();
    const code = deeplink.code?.trim().toUpperCase() || null;
    const trackingId = newTrackingId();

    const isBot = isBotVisit(headerUserAgent, fingerprint.userAgent);
    const visitor = visitorKey(app.hashIdentifier, {
      sessionId,
      ip: request.ip,
      userAgent: headerUserAgent ?? fingerprint.userAgent,
    });
    const ipHash = app.hashIdentifier(request.ip);
    const dataCentre = isDataCentreAgent(headerUserAgent) || isDataCentreAgent(fingerprint.userAgent);
    // Stored, and the batch's click bursts checked, before the answer (docs/product/review.md#signals).
    const { counted } = await visitWriterFor(app).record(
      {
        trackingId,
        type: deeplink.type,
        code,
        sessionId: sessionId ?? null,
        visitorKey: visitor,
        ipHash,
        userAgent: fingerprint.userAgent,
        language: fingerprint.language,
        timezone: fingerprint.timezone,
        screenResolution: fingerprint.screenResolution,
        platform: fingerprint.platform,
        colorDepth: fingerprint.colorDepth,
        deviceMemory: fingerprint.deviceMemory,
        hardwareConcurrency: fingerprint.hardwareConcurrency,
        clientTimestamp: fingerprint.timestamp,
        referrer: fingerprint.referrer,
        path: input.path,
        query: input.query,
        isBot,
        createdAt,
        hourBucket: hourBucket(createdAt),
      },
      { dataCentre },
    );
    app.metrics.clickRecorded(isBot ? 'bot' : counted ? 'counted' : 'uncounted');
    if (code !== null && hasSessionCredentials(request)) await markIfSelfVisit(app, request, trackingId);

    // Cookies only once the visit is stored: a tracking id always names a stored visit.
    const cookie = { path: '/', sameSite: 'lax', secure: app.config.isHttps } as const;
    // Readable by the page: the "Open the app" tap copies it to the clipboard (docs/product/attribution.md#install-attribution).
    reply.setCookie(TRACKING_ID_COOKIE, trackingId, {
      ...cookie,
      httpOnly: false,
      maxAge: TRACKING_COOKIE_DAYS * DAY_SECONDS,
    });
    if (!cookieSessionId) {
      reply.setCookie(VISITOR_SESSION_COOKIE, sessionId ?? newSessionId(), {
        ...cookie,
        httpOnly: true,
        maxAge: VISITOR_SESSION_COOKIE_DAYS * DAY_SECONDS,
      });
    }
    return { trackingId };
  },
});

/**
 * Whether the request may carry a signed-in session: a cookie header, or a bearer token. A visitor
 * without either (most of them) costs no lookup at all; `resolveCaller` decides for the others.
 */
function hasSessionCredentials(request: FastifyRequest): boolean {
  return request.headers.cookie !== undefined || request.headers.authorization !== undefined;
}

/**
 * A visit from the signed-in browser of the code's own affiliate (docs/product/review.md#signals) is
 * marked, and a self-referral raised (the request carries the session cookie when they are signed in
 * on this site). The batch's click bursts were checked as it was stored (the visit writer). A failure
 * here is logged; the visitor still goes on to the store.
 */
async function markIfSelfVisit(app: AppContext, request: FastifyRequest, trackingId: string): Promise<void> {
  try {
    const caller = await resolveCaller(app, request);
    const affiliate = caller ? await caller.affiliate() : null;
    if (!affiliate) return;
    const at = app.now();
    await inTransaction(app, (tx) => markSelfVisit(tx, app, { trackingId, affiliateId: affiliate.affiliateId, at }));
  } catch (error) {
    app.log.error({ err: error }, 'visit review signals failed');
  }
}
