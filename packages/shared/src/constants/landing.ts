// The referral and download landing (spec §2 "Deep-link and download page").

/** `ref`: a referral link; `download`: a plain download link. */
export const LANDING_TYPES = ['ref', 'download'] as const;
export type LandingType = (typeof LANDING_TYPES)[number];

/** Device classes of the landing page's behaviour and of the fingerprint (spec §3). */
export const PLATFORMS = ['ios', 'android', 'desktop'] as const;
export type Platform = (typeof PLATFORMS)[number];
