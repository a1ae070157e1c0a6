// Timings of the public site and the referral landing page (docs/product/rules-and-constants.md#timings).

/** Desktop and Android countdown before the app is opened (docs/product/rules-and-constants.md#timings). */
export const LANDING_COUNTDOWN_SECONDS = 5;
/** Delay before the store fallback when the app did not open (docs/product/rules-and-constants.md#timings). */
export const STORE_FALLBACK_MS = 2500;
/** iOS tries the app this soon after load (docs/product/rules-and-constants.md#timings). */
export const IOS_AUTO_OPEN_MS = 300;
/** The public header turns opaque once the page is scrolled further than this (docs/product/rules-and-constants.md#timings). */
export const HEADER_OPAQUE_SCROLL_PX = 50;
/** Lifetime of the landing page's visitor session id cookie (docs/product/rules-and-constants.md#cookies: session 30 days). */
export const VISITOR_SESSION_COOKIE_DAYS = 30;
/** Lifetime of the tracking id cookie (docs/product/rules-and-constants.md#cookies: tracking 90 days). */
export const TRACKING_COOKIE_DAYS = 90;
/** Callable client default time-out (docs/product/calls-and-data.md#callable-protocol: 70 s). */
export const CALLABLE_TIMEOUT_MS = 70_000;
/** A visit counts as a click at most once per code per visitor in this window (docs/product/attribution.md#visits-and-counted-clicks). */
export const CLICK_DEDUP_WINDOW = 'hour';
/** Un-attributed click records lose their personal fields after this many days (docs/product/rules-and-constants.md#retention). */
export const CLICK_PERSONAL_DATA_DAYS = 90;
