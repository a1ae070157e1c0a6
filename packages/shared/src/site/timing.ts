// Timings of the public site and the referral landing page (spec §4, §9).

/** Desktop and Android countdown before the app is opened (spec §9 "countdown 5 s"). */
export const LANDING_COUNTDOWN_SECONDS = 5;
/** Delay before the store fallback when the app did not open (spec §9 "store fallback 2.5 s"). */
export const STORE_FALLBACK_MS = 2500;
/** iOS tries the app this soon after load (spec §9 "iOS auto-open 300 ms"). */
export const IOS_AUTO_OPEN_MS = 300;
/** The public header turns opaque once the page is scrolled further than this (spec §9). */
export const HEADER_OPAQUE_SCROLL_PX = 50;
/** Lifetime of the landing page's visitor session id cookie (spec §9: session 30 days). */
export const VISITOR_SESSION_COOKIE_DAYS = 30;
/** Lifetime of the tracking id cookie (spec §9: tracking 90 days). */
export const TRACKING_COOKIE_DAYS = 90;
/** Callable client default time-out (spec §7: 70 s). */
export const CALLABLE_TIMEOUT_MS = 70_000;
/** A visit counts as a click at most once per code per visitor in this window (BRIEF §4). */
export const CLICK_DEDUP_WINDOW = 'hour';
/** Un-attributed click records lose their personal fields after this many days (BRIEF §6). */
export const CLICK_PERSONAL_DATA_DAYS = 90;
