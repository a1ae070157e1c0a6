import { z } from 'zod';
import { isStorableJson } from '@skanova/shared/callable/storable-text';

// RevenueCat's webhook body (docs/product/attribution.md#conversions): `{ api_version, event: {…} }`.
// Events carry many more fields than we use, and new ones appear: the schema checks only what we
// read and keeps the rest (the whole payload is stored with the event).

/** Latest plausible event time (ms): a bound that keeps dates valid for JavaScript and PostgreSQL. */
const MAX_TIMESTAMP_MS = Date.UTC(2200, 0, 1);
/**
 * The largest price, in USD either way (refunds are negative), an event may carry: far above any
 * subscription a store sells, and far below where integer cents stop being exact. A larger one is
 * refused (`price-out-of-range`, docs/decisions/016-security-hardening.md) rather than stored: a
 * commission is never priced from it.
 */
export const MAX_EVENT_PRICE_USD = 1_000_000;
/** RevenueCat may name many aliases for a long-lived customer; beyond this, the body is refused. */
const MAX_IDS = 1000;

const id = z.string().min(1).max(512);
const ids = z.array(id).max(MAX_IDS).nullish();
const text = (max: number) => z.string().max(max).nullish();
const timestampMs = z.number().int().min(0).max(MAX_TIMESTAMP_MS).nullish();

export const revenueCatEventSchema = z.looseObject({
  id: z.string().min(1).max(256),
  type: z.string().min(1).max(64),
  app_user_id: id.nullish(),
  original_app_user_id: id.nullish(),
  aliases: ids,
  transferred_from: ids,
  transferred_to: ids,
  period_type: text(32),
  /** USD; negative on some refunds. */
  price: z.number().min(-MAX_EVENT_PRICE_USD).max(MAX_EVENT_PRICE_USD).nullish(),
  price_in_purchased_currency: z.number().nullish(),
  /** The store's share of the price, 0–1 (0.3 = 30 %), when RevenueCat knows it. */
  commission_percentage: z.number().nullish(),
  currency: text(16),
  is_trial_conversion: z.boolean().nullish(),
  cancel_reason: text(64),
  environment: text(32),
  store: text(64),
  product_id: text(256),
  transaction_id: text(256),
  original_transaction_id: text(256),
  purchased_at_ms: timestampMs,
  event_timestamp_ms: timestampMs,
});

export const revenueCatWebhookSchema = z.looseObject({
  api_version: z.union([z.string().max(16), z.number()]).nullish(),
  event: revenueCatEventSchema,
});

export type RevenueCatEvent = z.infer<typeof revenueCatEventSchema>;
export type RevenueCatWebhook = z.infer<typeof revenueCatWebhookSchema>;

/** What an event means for the programme. */
export type EventMeaning = 'test' | 'conversion' | 'renewal' | 'trial' | 'refund' | 'transfer' | 'other';

/**
 * - a conversion is a first paid subscription: INITIAL_PURCHASE of a NORMAL or INTRO period, or the
 *   RENEWAL that converts a trial; "paid" means a price above 0 in both cases;
 * - a trial start (INITIAL_PURCHASE of a TRIAL period) earns nothing until that renewal;
 * - any other paid RENEWAL is a renewal: it earns only under a recurring rule
 *   (docs/product/money.md#partner-groups-and-reward-rules);
 * - a refund is a CANCELLATION with cancel_reason CUSTOMER_SUPPORT (the stores' refunds);
 * - a TRANSFER moves ids from one customer to another.
 */
export function eventMeaning(event: RevenueCatEvent): EventMeaning {
  const paid = (event.price ?? 0) > 0;
  switch (event.type) {
    case 'TEST':
      return 'test';
    case 'INITIAL_PURCHASE':
      if (event.period_type === 'TRIAL') return 'trial';
      return paid && (event.period_type === 'NORMAL' || event.period_type === 'INTRO') ? 'conversion' : 'other';
    case 'RENEWAL':
      if (!paid) return 'other';
      return event.is_trial_conversion === true ? 'conversion' : 'renewal';
    case 'CANCELLATION':
      return event.cancel_reason === 'CUSTOMER_SUPPORT' ? 'refund' : 'other';
    case 'TRANSFER':
      return 'transfer';
    default:
      return 'other';
  }
}

/**
 * The purchase's proceeds in USD cents: its price less the store's commission when the event gives it
 * (a share from 0 to 1); null without a price.
 */
export function proceedsCents(event: RevenueCatEvent): number | null {
  if (typeof event.price !== 'number' || event.price <= 0) return null;
  const priceCents = Math.round(event.price * 100);
  const share = event.commission_percentage;
  const kept = typeof share === 'number' && share >= 0 && share <= 1 ? 1 - share : 1;
  return Math.round(priceCents * kept);
}

/** Whether RevenueCat marked the event as a sandbox (test purchase) one. */
export function isSandbox(event: RevenueCatEvent): boolean {
  return event.environment === 'SANDBOX';
}

/** When the purchase happened: its purchase time, else the event's time, else `now`. */
export function occurredAt(event: RevenueCatEvent, now: Date): Date {
  const ms = event.purchased_at_ms ?? event.event_timestamp_ms;
  return typeof ms === 'number' ? new Date(ms) : now;
}

/** The customer's ids the event names (a TRANSFER names its ids in transferred_from/transferred_to). */
export function customerIds(event: RevenueCatEvent): (string | null | undefined)[] {
  return [event.app_user_id, event.original_app_user_id, ...(event.aliases ?? [])];
}

/** The product code of a refused body (the callable error's `details.code`). */
export type RefusalCode = 'malformed-event' | 'price-out-of-range';

export type ParsedWebhook =
  | { ok: true; webhook: RevenueCatWebhook; payload: unknown }
  | {
      ok: false;
      reason: string;
      code: RefusalCode;
      /**
       * An event refused for its price alone (every other field is well-formed): recorded as refused,
       * so that an operator sees it and a later delivery in bounds is still applied.
       */
      refused?: { webhook: RevenueCatWebhook; payload: unknown };
    };

/** The event with its price taken out of bounds' reach: what a price-only refusal records. */
const unboundedPriceSchema = z.looseObject({
  api_version: revenueCatWebhookSchema.shape.api_version,
  event: revenueCatEventSchema.extend({ price: z.number().nullish() }),
});

/** The webhook from the raw request body, or why it is malformed. */
export function parseRevenueCatWebhook(body: string): ParsedWebhook {
  let payload: unknown;
  try {
    payload = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'not JSON', code: 'malformed-event' };
  }
  // The whole payload is stored as jsonb: the storable-text rule holds for every string and key of
  // it, known fields or not, and nesting beyond the rule's depth is not an event.
  if (!isStorableJson(payload)) return { ok: false, reason: 'unstorable text or nesting', code: 'malformed-event' };
  const parsed = revenueCatWebhookSchema.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const reason = `${issue?.path.map(String).join('.') || '(body)'}: ${issue?.message ?? 'invalid'}`;
    const priceOnly = parsed.error.issues.every((each) => each.path.join('.') === 'event.price');
    const unbounded = priceOnly ? unboundedPriceSchema.safeParse(payload) : null;
    if (unbounded?.success) {
      return { ok: false, reason, code: 'price-out-of-range', refused: { webhook: unbounded.data, payload } };
    }
    return { ok: false, reason, code: 'malformed-event' };
  }
  return { ok: true, webhook: parsed.data, payload };
}
