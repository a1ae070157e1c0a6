// The web app (ADR 010): a private selfie analysis that runs in the visitor's browser, under /studio.
// `/app/{type}/{code}` is the referral landing (docs/product/calls-and-data.md#visit-record), so the app cannot live under /app.

/** The app's home: consent before the first scan, then the saved scans. */
export const STUDIO_HOME = '/studio';
/** Capture (camera or file) and the result of a new scan. */
export const STUDIO_SCAN_PAGE = '/studio/scan';
/** One saved scan (`?id=…`), read from the device. */
export const STUDIO_RESULT_PAGE = '/studio/result';
/** Every saved scan on a timeline, the trends per zone and metric, the next scan's date and the reminder. */
export const STUDIO_JOURNAL_PAGE = '/studio/journal';
/** Two saved scans side by side (`?a=…&b=…`). */
export const STUDIO_COMPARE_PAGE = '/studio/compare';
/** The consultation: the visitor's profile (questionnaire) and questions answered from their results. */
export const STUDIO_CONSULTATION_PAGE = '/studio/consultation';
/** The morning and evening routine from the profile and the latest results. */
export const STUDIO_ROUTINE_PAGE = '/studio/routine';
/** The visitor's data: export to a file, import from one, delete everything. */
export const STUDIO_DATA_PAGE = '/studio/data';
/** The app's pages (prerendered in both languages, served with the app's CSP). */
export const STUDIO_PAGES = [
  STUDIO_HOME,
  STUDIO_SCAN_PAGE,
  STUDIO_RESULT_PAGE,
  STUDIO_JOURNAL_PAGE,
  STUDIO_COMPARE_PAGE,
  STUDIO_CONSULTATION_PAGE,
  STUDIO_ROUTINE_PAGE,
  STUDIO_DATA_PAGE,
] as const;

/** A location's path as the app names its pages: without a trailing slash. */
export function studioPagePath(pathname: string): string {
  return pathname.replace(/\/+$/, '');
}

export function isStudioPage(pagePath: string): boolean {
  return (STUDIO_PAGES as readonly string[]).includes(pagePath);
}
