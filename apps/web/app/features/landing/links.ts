import type { LandingTarget } from '@skanova/shared/landing/landing-path';

/**
 * The app's deep link (docs/product/routes-and-screens.md#referral-landing): `<scheme>ref/<code>` for a referral with a code, else `<scheme><type>`
 * (`skanova://download`, or `skanova://ref` for a referral link that lost its code).
 */
export function appDeepLink(scheme: string, target: LandingTarget): string {
  if (target.type === 'ref' && target.code) return `${scheme}ref/${encodeURIComponent(target.code)}`;
  return `${scheme}${target.type}`;
}

/**
 * The Google Play address with an install referrer, which Play hands to the app on first launch
 * (docs/product/attribution.md#install-attribution): `referrer=` + the URL-encoded `tracking_id=<id>&code=<code>` (each part only when known).
 */
export function playStoreUrlWithReferrer(playStoreUrl: string, trackingId: string | null, code: string | null): string {
  const parts: string[] = [];
  if (trackingId) parts.push(`tracking_id=${encodeURIComponent(trackingId)}`);
  if (code) parts.push(`code=${encodeURIComponent(code)}`);
  if (parts.length === 0) return playStoreUrl;
  const [base, fragment] = splitFragment(playStoreUrl);
  const separator = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
  return `${base}${separator}referrer=${encodeURIComponent(parts.join('&'))}${fragment}`;
}

function splitFragment(url: string): [string, string] {
  const hash = url.indexOf('#');
  return hash === -1 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
}

/**
 * The web app's address for a visitor of the landing (docs/product/routes-and-screens.md#referral-landing): a referral's code
 * goes with it as `?ref=CODE`, which the web app keeps on the device so that its own "get the mobile
 * app" comes back through this landing with it (docs/product/web-app.md#referral-continuity). A plain
 * download link is no referral, as the web app reads it too.
 */
export function webAppLink(webAppUrl: string, target: LandingTarget | undefined): string {
  if (target?.type !== 'ref' || !target.code) return webAppUrl;
  const [base, fragment] = splitFragment(webAppUrl);
  return `${base}${base.includes('?') ? '&' : '?'}ref=${encodeURIComponent(target.code)}${fragment}`;
}
