import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_SIGNATURE_TOLERANCE_SECONDS } from '@skanova/shared/webhooks/constants';

// Signatures (docs/product/webhooks.md#signatures), as Stripe signs its webhooks: the header
// `Skanova-Signature: t=<unix seconds>,v1=<hex>` where each v1 is HMAC-SHA256, keyed by an endpoint
// secret, of `<t>.<raw body>`. During a rotation's overlap there is one v1 per secret still valid
// (the new one first), so a receiver verifies with whichever it holds. The timestamp is signed with
// the body: a receiver refuses a signature too far from its clock, and a replayed capture with it.

/** A new endpoint secret: `whsec_` and 32 random bytes (base64url). The whole string is the HMAC key. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

function hmac(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

/** The header value for `body` sent at `at`, signed with each of `secrets` (the current one first). */
export function signatureHeader(body: string, secrets: readonly string[], at: Date): string {
  const timestamp = Math.floor(at.getTime() / 1000);
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${hmac(secret, timestamp, body)}`)].join(',');
}

/**
 * What a receiver does (the recipe docs/product/webhooks.md#signatures gives): whether `header`
 * signs `body` with `secret`, at a time within `toleranceSeconds` of `now`. Used by the tests'
 * receivers; the product itself only signs.
 */
export function verifySignature(
  header: string | undefined,
  body: string,
  secret: string,
  now: Date = new Date(),
  toleranceSeconds: number = WEBHOOK_SIGNATURE_TOLERANCE_SECONDS,
): boolean {
  if (!header) return false;
  const parts = header.split(',').map((part) => part.trim().split('=', 2) as [string, string | undefined]);
  const timestamp = Number(parts.find(([key]) => key === 't')?.[1]);
  if (!Number.isSafeInteger(timestamp)) return false;
  if (Math.abs(now.getTime() / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(hmac(secret, timestamp, body), 'hex');
  return parts.some(([key, value]) => {
    if (key !== 'v1' || value === undefined || !/^[0-9a-f]{64}$/.test(value)) return false;
    return timingSafeEqual(Buffer.from(value, 'hex'), expected);
  });
}
