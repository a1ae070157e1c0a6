import type { CallableFunctions } from '@skanova/shared/callable/functions';
import type { Platform } from '@skanova/shared/landing/constants';
import { VISITOR_SESSION_COOKIE } from '@skanova/shared/site/constants';
import type { LandingTarget } from '@skanova/shared/landing/landing-path';

// The visit record sent to storePreInstallData (docs/product/calls-and-data.md#visit-record, "Deep-link payload").
// Values are clipped to the bounds of the shared schema (landing/schemas.ts) so that an unusual
// visit (a very long user agent or referrer, a NUL in the query) is still recorded, not refused.

export type PreInstallRequest = CallableFunctions['storePreInstallData']['request'];
export type Fingerprint = PreInstallRequest['fingerprint'];

const MAX_USER_AGENT = 1024;
const MAX_SHORT_FIELD = 64;
const MAX_SCREEN = 32;
const MAX_URL = 2048;
const MAX_CODE = 64;
const MAX_QUERY_PARAMS = 32;
const MAX_QUERY_KEY = 64;
const MAX_QUERY_VALUE = 512;

/** The parts of `window` the record reads (tests pass their own). */
export interface VisitEnvironment {
  navigator: Pick<Navigator, 'userAgent' | 'language' | 'hardwareConcurrency'> & { deviceMemory?: number };
  screen: Pick<Screen, 'width' | 'height' | 'colorDepth'>;
  referrer: string;
  timeZone: string | undefined;
}

export function browserEnvironment(): VisitEnvironment {
  let timeZone: string | undefined;
  try {
    timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    timeZone = undefined;
  }
  return { navigator: window.navigator, screen: window.screen, referrer: document.referrer, timeZone };
}

/**
 * `detailed`: the visitor accepted the optional measurement (consent banner). Without it the record
 * keeps only what attribution needs (docs/product/rules-and-constants.md#consent): platform, user agent (bot filtering and
 * the IP + user-agent visitor key), session, time and referrer; the device details stay empty.
 */
export function buildFingerprint(
  env: VisitEnvironment,
  platform: Platform,
  sessionId: string,
  now: Date,
  detailed = true,
): Fingerprint {
  const { navigator, screen } = env;
  const essential = {
    userAgent: clip(navigator.userAgent ?? '', MAX_USER_AGENT),
    platform,
    sessionId: clip(sessionId, MAX_SHORT_FIELD),
    timestamp: now.toISOString(),
    referrer: clip(env.referrer || 'direct', MAX_URL),
  };
  if (!detailed) {
    return {
      ...essential,
      language: '',
      timezone: '',
      screenResolution: '',
      colorDepth: null,
      deviceMemory: null,
      hardwareConcurrency: null,
    };
  }
  return {
    userAgent: clip(navigator.userAgent ?? '', MAX_USER_AGENT),
    language: clip(navigator.language ?? '', MAX_SHORT_FIELD),
    timezone: clip(env.timeZone ?? '', MAX_SHORT_FIELD),
    screenResolution: clip(`${screen.width}x${screen.height}`, MAX_SCREEN),
    platform,
    colorDepth: integerOrNull(screen.colorDepth, 64),
    deviceMemory: numberOrNull(navigator.deviceMemory, 1024),
    hardwareConcurrency: integerOrNull(navigator.hardwareConcurrency, 1024),
    sessionId: clip(sessionId, MAX_SHORT_FIELD),
    timestamp: now.toISOString(),
    referrer: clip(env.referrer || 'direct', MAX_URL),
  };
}

/**
 * The whole request. `originalPath` is the address the visitor opened (entry.client keeps it in
 * history state when it rewrites /ref/CODE and /app/… to /download); `search` is the current query.
 */
export function buildPreInstallRequest(options: {
  env: VisitEnvironment;
  platform: Platform;
  sessionId: string;
  now: Date;
  target: LandingTarget;
  originalPath: string;
  search: string;
  /** Consent granted to the optional measurement: send the device details too. */
  detailed?: boolean;
}): PreInstallRequest {
  const { target, originalPath } = options;
  const queryStart = originalPath.indexOf('?');
  const path = queryStart === -1 ? originalPath : originalPath.slice(0, queryStart);
  return {
    fingerprint: buildFingerprint(
      options.env,
      options.platform,
      options.sessionId,
      options.now,
      options.detailed ?? true,
    ),
    deeplink: {
      type: target.type,
      code: target.code ? clip(target.code, MAX_CODE) : null,
      fullPath: clip(originalPath, MAX_URL),
    },
    path: clip(path, MAX_URL),
    query: queryObject(options.search),
  };
}

/** Query parameters as an object (first value of a repeated name), within the schema's bounds. */
export function queryObject(search: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(search)) {
    if (Object.keys(query).length >= MAX_QUERY_PARAMS) break;
    const name = clip(key, MAX_QUERY_KEY);
    if (!(name in query)) query[name] = clip(value, MAX_QUERY_VALUE);
  }
  return query;
}

const SESSION_ID_PATTERN = /^[A-Za-z0-9-]{16,64}$/;

/**
 * The visitor's session id: generated once and kept in session storage, so a reload sends the same
 * one (the server also keeps it in its 30-day session cookie). Works without storage (private modes).
 */
export function visitorSessionId(storage: Pick<Storage, 'getItem' | 'setItem'> | null): string {
  try {
    const stored = storage?.getItem(VISITOR_SESSION_COOKIE);
    if (stored && SESSION_ID_PATTERN.test(stored)) return stored;
  } catch {
    // Storage refused: a fresh id per page load is still a valid session id.
  }
  const id = randomId();
  try {
    storage?.setItem(VISITOR_SESSION_COOKIE, id);
  } catch {
    // Same as above.
  }
  return id;
}

function randomId(): string {
  // randomUUID exists only in secure contexts; getRandomValues everywhere.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Within the schema's length, without NUL characters (the server refuses them). */
function clip(value: string, max: number): string {
  const clean = value.includes('\u0000') ? value.replaceAll('\u0000', '') : value;
  return clean.length > max ? clean.slice(0, max) : clean;
}

function numberOrNull(value: unknown, max: number): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= max ? value : null;
}

function integerOrNull(value: unknown, max: number): number | null {
  const number = numberOrNull(value, max);
  return number !== null && Number.isInteger(number) ? number : null;
}
