// The affiliate area: pages, referral codes, sessions and dashboard windows (docs/product/routes-and-screens.md#route-table, docs/product/rules-and-constants.md#referral-codes,
// docs/product/rules-and-constants.md#cookies).

/** Affiliate pages anyone may open (prerendered in both languages). */
export const AFFILIATE_PUBLIC_PAGES = [
  '/affiliate',
  '/affiliate/signup',
  '/affiliate/login',
  '/affiliate/terms',
  '/affiliate/reset-password',
] as const;
/** Affiliate pages behind a session: prerendered as a loading shell, never indexed. */
export const AFFILIATE_PROTECTED_PAGES = ['/affiliate/dashboard', '/affiliate/qrcode', '/affiliate/marketing'] as const;
export const AFFILIATE_PAGES = [...AFFILIATE_PUBLIC_PAGES, ...AFFILIATE_PROTECTED_PAGES] as const;
/** Affiliate pages listed in the sitemap (the sign-in forms and the reset flow are not worth indexing). */
export const AFFILIATE_INDEXED_PAGES = ['/affiliate', '/affiliate/terms', '/affiliate/signup'] as const;

export const AFFILIATE_LOGIN_PAGE = '/affiliate/login';
export const AFFILIATE_DASHBOARD_PAGE = '/affiliate/dashboard';
export const AFFILIATE_RESET_PASSWORD_PAGE = '/affiliate/reset-password';
export const AFFILIATE_QR_CODE_PAGE = '/affiliate/qrcode';
export const AFFILIATE_MARKETING_PAGE = '/affiliate/marketing';

/** Referral codes: 8 characters from an alphabet without look-alikes (no 0/O, 1/I/L) (docs/product/rules-and-constants.md#referral-codes). */
export const REFERRAL_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const REFERRAL_CODE_LENGTH = 8;
/** A code's description is a short label for the affiliate's own use. */
export const REFERRAL_DESCRIPTION_MAX = 100;

/** Sign-in sessions last 30 days (docs/product/rules-and-constants.md#cookies). */
export const AUTH_SESSION_SECONDS = 30 * 24 * 60 * 60;
/** A password-reset link works once, for this long. */
export const PASSWORD_RESET_TOKEN_SECONDS = 60 * 60;
/** Passwords longer than this are refused (hashing cost is bounded). */
export const PASSWORD_MAX_LENGTH = 128;

/** "Real-time active users": distinct visitors on the affiliate's links in this window (docs/product/attribution.md#active-visitors). */
export const ACTIVE_VISITORS_WINDOW_MINUTES = 5;
/** The dashboard asks again for them this often while its page is visible, never while it is hidden. */
export const ACTIVE_VISITORS_REFRESH_SECONDS = 30;
/** The overview chart covers this many UTC days, today included. */
export const STATS_CHART_DAYS = 30;
/**
 * `last30DaysCount` counts qualified conversions in the chart's days (affiliate/recent-activity.ts),
 * so the card and the chart always agree.
 */
export const RECENT_CONVERSIONS_DAYS = STATS_CHART_DAYS;

/** Field bounds of the signup and profile forms. */
export const PROFILE_LIMITS = {
  email: 254,
  name: 100,
  phone: 30,
  companyName: 120,
  website: 300,
  paypalEmail: 254,
  bankName: 120,
  accountHolder: 140,
} as const;
