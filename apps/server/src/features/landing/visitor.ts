import { randomBytes } from 'node:crypto';

// Who a landing-page visitor is, for the "one counted click per code per visitor per hour" rule
// (docs/product/attribution.md#visits-and-counted-clicks): their session id (cookie, else the one the page generated), or their IP + user agent.
// Only keyed hashes of these reach the database.

/** Session ids we accept from a cookie or from the page: URL-safe, long enough to be random. */
const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** Tracking ids carry 144 random bits, base64url (24 characters): unguessable and URL-safe. */
const TRACKING_ID_BYTES = 18;
/** Generated session ids carry 128 random bits. */
const SESSION_ID_BYTES = 16;

/**
 * Random bytes come from the system's generator a few kilobytes at a time (as `crypto.randomUUID`
 * does): a call per visit cost more than the rest of building its row.
 */
const RANDOM_POOL_BYTES = 4096;
let randomPool = Buffer.alloc(0);
let randomOffset = 0;

/** `bytes` fresh random bytes (never handed out twice), base64url. */
function randomId(bytes: number): string {
  if (randomOffset + bytes > randomPool.length) {
    randomPool = randomBytes(RANDOM_POOL_BYTES);
    randomOffset = 0;
  }
  const id = randomPool.toString('base64url', randomOffset, randomOffset + bytes);
  randomOffset += bytes;
  return id;
}

export function newTrackingId(): string {
  return randomId(TRACKING_ID_BYTES);
}

export function newSessionId(): string {
  return randomId(SESSION_ID_BYTES);
}

/** The value if it looks like a session id we could have issued, else undefined. */
export function validSessionId(value: string | undefined): string | undefined {
  return value !== undefined && SESSION_ID_PATTERN.test(value) ? value : undefined;
}

/** Keyed hash identifying the visitor: by session when there is one, else by IP + user agent. */
export function visitorKey(
  hash: (value: string) => string,
  visitor: { sessionId: string | undefined; ip: string; userAgent: string },
): string {
  return visitor.sessionId !== undefined
    ? hash(`session:${visitor.sessionId}`)
    : hash(`ip-ua:${visitor.ip}\n${visitor.userAgent}`);
}

/** Start of the UTC clock hour holding `time`: the de-duplication bucket. */
export function hourBucket(time: Date): Date {
  const HOUR_MS = 3_600_000;
  return new Date(Math.floor(time.getTime() / HOUR_MS) * HOUR_MS);
}
