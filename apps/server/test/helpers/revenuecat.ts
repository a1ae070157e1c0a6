import { randomUUID } from 'node:crypto';
import { type TestApp, TEST_PUBLIC_URL } from './app.ts';
import { callFn } from './affiliates.ts';
import { IPHONE_USER_AGENT, createVisit } from './visits.ts';

// The mobile app's first launch (attributeInstall) and RevenueCat's webhook deliveries, as they
// arrive in production: events carry many fields the programme does not read.

/** The Authorization header RevenueCat is configured to send in tests. */
export const WEBHOOK_AUTH = 'Bearer rc-test-webhook-secret-0123456789';
export const WEBHOOK_PATH = '/api/webhooks/revenuecat';

let sequence = 0;

/** A RevenueCat-style anonymous app user id, unique per call. */
export function anonymousId(): string {
  sequence += 1;
  return `$RCAnonymousID:${randomUUID().replaceAll('-', '')}${sequence}`;
}

/** Each call from its own address unless one is given (the per-IP limit is tested on its own). */
function nextIp(): string {
  sequence += 1;
  return `10.77.${(sequence >> 8) & 255}.${sequence & 255}`;
}

export const ANDROID_USER_AGENT =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';

/**
 * A landing-page visit of `/ref/<code>` from a phone at `ip`, through storePreInstallData (recorded at
 * the server's clock); answers its tracking id.
 */
export async function landingVisit(
  t: TestApp,
  code: string,
  options: { ip: string; platform?: 'ios' | 'android'; userAgent?: string },
): Promise<string> {
  const platform = options.platform ?? 'ios';
  const userAgent = options.userAgent ?? (platform === 'ios' ? IPHONE_USER_AGENT : ANDROID_USER_AGENT);
  sequence += 1;
  const data = createVisit({
    code,
    sessionId: `visit-session-${sequence}-abcdefgh`,
    userAgent,
    timestamp: t.clock.now.toISOString(),
  });
  data.fingerprint.platform = platform;
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/fn/storePreInstallData',
    headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL, 'user-agent': userAgent },
    remoteAddress: options.ip,
    payload: JSON.stringify({ data }),
  });
  if (response.statusCode !== 200) throw new Error(`visit failed: ${response.body}`);
  return (response.json() as { result: { trackingId: string } }).result.trackingId;
}

export async function attributeInstall(t: TestApp, data: Record<string, unknown>, ip: string = nextIp()) {
  return callFn(t, 'attributeInstall', data, undefined, ip);
}

/** A new app user attributed to `code` by typing it; answers their app user id. */
export async function attributedUser(t: TestApp, code: string, platform: 'ios' | 'android' = 'ios'): Promise<string> {
  const appUserId = anonymousId();
  const response = await attributeInstall(t, { appUserId, platform, referralCode: code });
  if (response.status !== 200 || !response.body.result?.attributed)
    throw new Error(`attribution failed: ${JSON.stringify(response.body)}`);
  return appUserId;
}

export interface RevenueCatEventOverrides {
  [field: string]: unknown;
}

/**
 * A production INITIAL_PURCHASE of a monthly subscription at $9.99 for `appUserId` (override any
 * field), with the extra fields RevenueCat sends.
 */
export function purchaseEvent(
  appUserId: string,
  overrides: RevenueCatEventOverrides = {},
  at: Date = new Date(),
): Record<string, unknown> {
  sequence += 1;
  const transactionId = `${1000000000 + sequence}`;
  return {
    id: randomUUID().toUpperCase(),
    type: 'INITIAL_PURCHASE',
    app_id: 'app1234567890',
    app_user_id: appUserId,
    original_app_user_id: appUserId,
    aliases: [appUserId],
    transferred_from: null,
    transferred_to: null,
    period_type: 'NORMAL',
    purchased_at_ms: at.getTime(),
    expiration_at_ms: at.getTime() + 30 * 86_400_000,
    event_timestamp_ms: at.getTime() + 1000,
    environment: 'PRODUCTION',
    entitlement_id: null,
    entitlement_ids: ['premium'],
    presented_offering_id: 'default',
    product_id: 'skanova_monthly',
    price: 9.99,
    price_in_purchased_currency: 9.99,
    currency: 'USD',
    is_family_share: false,
    country_code: 'FR',
    store: 'APP_STORE',
    takehome_percentage: 0.85,
    offer_code: null,
    tax_percentage: 0.2,
    commission_percentage: 0.15,
    transaction_id: transactionId,
    original_transaction_id: transactionId,
    subscriber_attributes: { $email: { updated_at_ms: at.getTime(), value: 'someone@example.com' } },
    is_trial_conversion: false,
    cancel_reason: null,
    ...overrides,
  };
}

/** A store refund (CANCELLATION by customer support) of the purchase `event`. */
export function refundEvent(
  purchase: Record<string, unknown>,
  overrides: RevenueCatEventOverrides = {},
): Record<string, unknown> {
  return {
    ...purchase,
    id: randomUUID().toUpperCase(),
    type: 'CANCELLATION',
    cancel_reason: 'CUSTOMER_SUPPORT',
    price: -(purchase.price as number),
    price_in_purchased_currency: -(purchase.price_in_purchased_currency as number),
    event_timestamp_ms: (purchase.event_timestamp_ms as number) + 86_400_000,
    ...overrides,
  };
}

/** POSTs a webhook body (an event, wrapped; or a raw string body) with the right secret unless told. */
export async function postWebhook(
  t: TestApp,
  body: Record<string, unknown> | string,
  options: { auth?: string | null; contentType?: string | null; wrap?: boolean } = {},
) {
  const headers: Record<string, string> = {};
  const auth = options.auth === undefined ? WEBHOOK_AUTH : options.auth;
  if (auth !== null) headers.authorization = auth;
  const contentType = options.contentType === undefined ? 'application/json' : options.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  const payload =
    typeof body === 'string'
      ? body
      : JSON.stringify(options.wrap === false ? body : { api_version: '1.0', event: body });
  const response = await t.app.inject({ method: 'POST', url: WEBHOOK_PATH, headers, payload });
  let json: { outcome?: string; error?: { status: string; message: string; details?: unknown } };
  try {
    json = response.json();
  } catch {
    json = {};
  }
  return { status: response.statusCode, body: json };
}

/** The stored RevenueCat event, or undefined. */
export async function storedEvent(t: TestApp, eventId: string) {
  const { rows } = await t.database.sql.query<{ outcome: string; conversion_id: number | null; type: string }>(
    'SELECT outcome, conversion_id::int AS conversion_id, type FROM revenuecat_events WHERE event_id = $1',
    [eventId],
  );
  return rows[0];
}

export interface ConversionRow {
  id: number;
  affiliate_id: string;
  app_user_id: string;
  commission_cents: number;
  rate_tier: string;
  status: string;
  occurred_at: string;
  approved_at: string | null;
  reversed_at: string | null;
  refunded_at: string | null;
  source_event_id: string;
}

export async function conversionsOf(t: TestApp, affiliateId: string): Promise<ConversionRow[]> {
  const { rows } = await t.database.sql.query<ConversionRow>(
    `SELECT id::int AS id, affiliate_id, app_user_id, commission_cents, rate_tier, status, occurred_at::text, approved_at::text,
            reversed_at::text, refunded_at::text, source_event_id
     FROM conversions WHERE affiliate_id = $1 ORDER BY id`,
    [affiliateId],
  );
  return rows;
}
