// Outgoing webhooks for operators (docs/product/webhooks.md): the events, the delivery's timings and
// the bounds of what an operator registers. The reasons are in docs/decisions/025-outgoing-webhooks.md.

/** Every event an endpoint may subscribe to (docs/product/webhooks.md#events). */
export const WEBHOOK_EVENT_TYPES = [
  'affiliate.applied',
  'affiliate.approved',
  'commission.created',
  'commission.approved',
  'commission.reversed',
  'payout.sent',
  'payout.paid',
  'review.opened',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly unknown[]).includes(value);
}

/** Endpoints registered at once: a handful of receivers is the use; a long list is a mistake. */
export const WEBHOOK_ENDPOINTS_MAX = 20;
/** An endpoint's address (the common browsers' and proxies' limit). */
export const WEBHOOK_URL_MAX = 2048;
/** What the operator notes about an endpoint ("CRM", "Zapier flow for payouts"). */
export const WEBHOOK_DESCRIPTION_MAX = 200;

/** Where a delivery stands: waiting (or retrying), delivered (a 2xx answer), or given up. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * Why an attempt failed, as the delivery log keeps it (a code the console translates, never a
 * receiver's text or address): an answer other than 2xx (`status`, with its code), a redirect (never
 * followed), no answer within the time-out, no connection, a TLS failure, a name that does not
 * resolve, an address the guard refuses (docs/product/webhooks.md#the-address-guard), or an address
 * the endpoint no longer allows (http in production).
 */
export const WEBHOOK_ATTEMPT_ERRORS = [
  'status',
  'redirect',
  'timeout',
  'connection-failed',
  'tls-failed',
  'dns-failed',
  'address-refused',
  'url-refused',
] as const;
export type WebhookAttemptError = (typeof WEBHOOK_ATTEMPT_ERRORS)[number];

/** A receiver answers within this or the attempt fails (docs/product/webhooks.md#delivery-and-retries). */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * The wait before each retry, in minutes: 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 20 h —
 * about three days from the first attempt to the last (71.6 hours, before jitter). Each wait gets up
 * to 20 % more at random, so that receivers coming back are not hit by every retry at once.
 */
export const WEBHOOK_RETRY_DELAYS_MINUTES = [1, 5, 30, 120, 300, 600, 840, 1200, 1200] as const;
/** The first attempt and one per retry: then the delivery is `failed`. */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MINUTES.length + 1;
/** The random share added to a retry's wait. */
export const WEBHOOK_RETRY_JITTER = 0.2;

/**
 * After a rotation, the previous secret still signs (beside the new one) for this long, so that a
 * receiver can switch over without losing an event (docs/product/webhooks.md#secret-rotation).
 */
export const WEBHOOK_SECRET_OVERLAP_HOURS = 24;

/** Headers of every delivery (docs/product/webhooks.md#signatures). */
export const WEBHOOK_SIGNATURE_HEADER = 'Skanova-Signature';
export const WEBHOOK_EVENT_ID_HEADER = 'Skanova-Event-Id';
export const WEBHOOK_EVENT_TYPE_HEADER = 'Skanova-Event-Type';

/** A receiver should refuse a signature whose timestamp is further than this from its clock (replays). */
export const WEBHOOK_SIGNATURE_TOLERANCE_SECONDS = 300;

/** Deliveries, their attempts and the events are kept this long, then deleted (docs/product/webhooks.md#delivery-log). */
export const WEBHOOK_LOG_RETENTION_DAYS = 30;
