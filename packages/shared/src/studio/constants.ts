// The web app (ADR 010): a private selfie analysis that runs in the visitor's browser, under /studio.
// `/app/{type}/{code}` is the referral landing (spec §3), so the app cannot live under /app.

/** The app's home: consent before the first scan, then the saved scans. */
export const STUDIO_HOME = '/studio';
/** Capture (camera or file) and the result of a new scan. */
export const STUDIO_SCAN_PAGE = '/studio/scan';
/** One saved scan (`?id=…`), read from the device. */
export const STUDIO_RESULT_PAGE = '/studio/result';
/** The app's pages (prerendered in both languages, served with the app's CSP). */
export const STUDIO_PAGES = [STUDIO_HOME, STUDIO_SCAN_PAGE, STUDIO_RESULT_PAGE] as const;

export function isStudioPage(pagePath: string): boolean {
  return (STUDIO_PAGES as readonly string[]).includes(pagePath);
}
