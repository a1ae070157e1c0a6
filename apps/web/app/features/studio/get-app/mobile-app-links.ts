// Where the web app's "get the mobile app" goes (docs/product/web-app.md#referral-continuity). With a referral code: through the
// referral landing (`/app/ref/CODE`), which records the visit, opens the app or the right store and
// carries the tracking id to the install — so the affiliate is credited. Without one: straight to the
// stores, as the site's own badges do; when the landing's tracking cookie is all there is (a visit
// recorded before codes were kept on the device, or a browser that cleared its storage but not its
// cookies), Google Play still gets that tracking id as install referrer: the code behind it is known
// only to the server, and the landing would record a new visit without it.

export type MobileAppLinks =
  { kind: 'referral'; code: string; href: string } | { kind: 'stores'; appStore: string; googlePlay: string };

export function mobileAppLinks(
  code: string | null,
  trackingId: string | null,
  stores: { appStoreUrl: string; playStoreUrl: string },
): MobileAppLinks {
  if (code) return { kind: 'referral', code, href: `/app/ref/${encodeURIComponent(code)}` };
  return {
    kind: 'stores',
    appStore: stores.appStoreUrl,
    googlePlay: withInstallReferrer(stores.playStoreUrl, trackingId),
  };
}

/**
 * Google Play's address with `referrer=tracking_id%3D<id>`, which Play hands to the app's first launch
 * (docs/product/attribution.md#install-attribution). The landing builds the same for its own visits (features/landing/links.ts, with the
 * code too); a few lines written twice rather than a chunk shared with the landing's first load.
 */
function withInstallReferrer(playStoreUrl: string, trackingId: string | null): string {
  if (!trackingId) return playStoreUrl;
  const url = new URL(playStoreUrl);
  url.searchParams.set('referrer', `tracking_id=${trackingId}`);
  return url.toString();
}
