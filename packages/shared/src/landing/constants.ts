// The referral and download landing (spec §2 "Deep-link and download page").

/** `ref`: a referral link; `download`: a plain download link. */
export const LANDING_TYPES = ['ref', 'download'] as const;
export type LandingType = (typeof LANDING_TYPES)[number];

/**
 * Referral codes: letters and digits, matched case-insensitively (BRIEF §4). Here rather than in
 * schemas.ts so that the browser can check a code without loading zod.
 */
export const REFERRAL_CODE_PATTERN = /^[A-Za-z0-9]{4,32}$/;

/** Device classes of the landing page's behaviour and of the fingerprint (spec §3). */
export const PLATFORMS = ['ios', 'android', 'desktop'] as const;
export type Platform = (typeof PLATFORMS)[number];

/**
 * Text the landing page's "Open the app" tap copies to the clipboard: this prefix then the tracking id.
 * On iOS the app reads it at first launch to attribute the install (BRIEF §5.5).
 */
export const CLIPBOARD_TRACKING_PREFIX = 'sk-tid:';
