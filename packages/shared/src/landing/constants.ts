// The referral and download landing (docs/product/routes-and-screens.md#referral-landing).

/** `ref`: a referral link; `download`: a plain download link. */
export const LANDING_TYPES = ['ref', 'download'] as const;
export type LandingType = (typeof LANDING_TYPES)[number];

/** Device classes of the landing page's behaviour and of the fingerprint (docs/product/calls-and-data.md#visit-record). */
export const PLATFORMS = ['ios', 'android', 'desktop'] as const;
export type Platform = (typeof PLATFORMS)[number];

/**
 * Text the landing page's "Open the app" tap copies to the clipboard: this prefix then the tracking id.
 * On iOS the app reads it at first launch to attribute the install (docs/product/attribution.md#install-attribution).
 */
export const CLIPBOARD_TRACKING_PREFIX = 'sk-tid:';
