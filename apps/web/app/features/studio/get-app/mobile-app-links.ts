import { playStoreUrlWithReferrer } from '../../../lib/app-links';

// Where the web app's "get the mobile app" goes (issue 12 §6). With a referral code: through the
// referral landing (`/app/ref/CODE`), which records the visit, opens the app or the right store and
// carries the tracking id to the install — so the affiliate is credited. Without one: straight to the
// stores, as the site's own badges do; when the landing's tracking cookie is all there is, Google Play
// still gets its tracking id as install referrer (the code behind it is known only to the server).

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
    googlePlay: playStoreUrlWithReferrer(stores.playStoreUrl, trackingId, null),
  };
}
