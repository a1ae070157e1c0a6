import { REFERRAL_CODE_PATTERN } from '@skanova/shared/landing/referral-code';
import { parseLandingPath } from '@skanova/shared/landing/landing-path';
import { TRACKING_ID_COOKIE } from '@skanova/shared/site/constants';
import { TRACKING_COOKIE_DAYS } from '@skanova/shared/site/timing';

// Referral continuity (docs/product/web-app.md#referral-continuity): a visitor who came through an affiliate's link keeps its code on
// this device, so that the web app's "get the mobile app" goes through the referral landing with it
// and a later install is credited to that affiliate.
//
// The landing's own cookie (`sk_tid`) holds a tracking id, not the code: the code behind it is known
// only to the server, and asking for it would send something new. So the code itself is kept here,
// in localStorage: the landing, the site and the app share one origin; it is readable synchronously
// before anything renders; and it is not the app's IndexedDB, which exists only with the consent to
// process facial data and is deleted with it — the referral is the site's business, like the cookie.
// It lasts as long as the tracking cookie (90 days) and the last referral wins, as attribution does.
// Nothing here is sent anywhere; the landing visit that follows is the one the landing always records.

export const REFERRAL_MEMORY_KEY = 'sk_ref';
const DAY_MS = 86_400_000;

interface RememberedReferral {
  code: string;
  /** When the visitor came through the link, ISO 8601 UTC. */
  at: string;
}

/** The code, upper-cased as codes are shown, or null when it is not a referral code's shape. */
export function normaliseReferralCode(value: string | null | undefined): string | null {
  const code = value?.trim();
  return code && REFERRAL_CODE_PATTERN.test(code) ? code.toUpperCase() : null;
}

/**
 * The referral code an address carries: `?ref=CODE` on any page of the site or the app, or the
 * landing's own forms (`/ref/CODE`, `/app/ref/CODE`, `/download?ref=CODE`). A plain download link
 * (`type=download`) is not a referral.
 */
export function referralCodeOf(url: URL): string | null {
  const landing = parseLandingPath(url.pathname, url.search);
  if (landing) return landing.type === 'ref' ? normaliseReferralCode(landing.code) : null;
  return normaliseReferralCode(new URLSearchParams(url.search).get('ref'));
}

/**
 * The code of the page the visitor arrived on, else of the page of this site that sent them here
 * (a same-origin referrer carries its full address: the site sends `strict-origin-when-cross-origin`).
 */
export function arrivalReferralCode(location: string, referrer: string): string | null {
  const here = safeUrl(location);
  if (!here) return null;
  const fromHere = referralCodeOf(here);
  if (fromHere) return fromHere;
  const before = safeUrl(referrer);
  return before && before.origin === here.origin ? referralCodeOf(before) : null;
}

/** Keeps `code` as the visitor's referral (replacing an earlier one). Storage refused: nothing kept. */
export function rememberReferral(code: string, now: Date, storage: Storage | null): void {
  const normalised = normaliseReferralCode(code);
  if (!normalised || !storage) return;
  const record: RememberedReferral = { code: normalised, at: now.toISOString() };
  try {
    storage.setItem(REFERRAL_MEMORY_KEY, JSON.stringify(record));
  } catch {
    // Storage full or refused (private modes): the referral is simply not remembered.
  }
}

/** The referral code kept on this device, if it is younger than the tracking cookie's 90 days. */
export function rememberedReferral(now: Date, storage: Storage | null): string | null {
  let text: string | null;
  try {
    text = storage?.getItem(REFERRAL_MEMORY_KEY) ?? null;
  } catch {
    return null;
  }
  if (!text) return null;
  try {
    const record = JSON.parse(text) as Partial<RememberedReferral>;
    const at = typeof record.at === 'string' ? Date.parse(record.at) : Number.NaN;
    const fresh = now.getTime() - at <= TRACKING_COOKIE_DAYS * DAY_MS && at <= now.getTime();
    return fresh ? normaliseReferralCode(record.code) : null;
  } catch {
    return null;
  }
}

/** The server issues tracking ids in base64url (attribution/schemas.ts reads nothing else). */
const TRACKING_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

/** The landing's tracking id cookie (a visit the server recorded), if the browser has a valid one. */
export function trackingIdFromCookies(cookies: string): string | null {
  const match = new RegExp(`(?:^|; )${TRACKING_ID_COOKIE}=([^;]+)`).exec(cookies);
  return match?.[1] && TRACKING_ID_PATTERN.test(match[1]) ? match[1] : null;
}

/** The page's localStorage, or null where the browser refuses it. */
export function localStorageOrNull(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

function safeUrl(value: string): URL | null {
  try {
    return value ? new URL(value) : null;
  } catch {
    return null;
  }
}
