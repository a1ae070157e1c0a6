// Languages, cookies and public routes of the website.

export const LANGUAGES = ['fr', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
/** French is the company's language and the default when nothing else decides (docs/product/rules-and-constants.md#languages). */
export const DEFAULT_LANGUAGE: Language = 'fr';
/** Cookie that remembers the visitor's explicit language choice. */
export const LANGUAGE_COOKIE = 'lang';
/** Cookie that remembers the consent banner answer ("granted" | "denied"). */
export const CONSENT_COOKIE = 'consent';
/** Landing page cookies (docs/product/calls-and-data.md#visit-record, docs/product/rules-and-constants.md#cookies). */
export const TRACKING_ID_COOKIE = 'sk_tid';
export const VISITOR_SESSION_COOKIE = 'sk_sid';

/** Prerendered, indexable public pages (one HTML file per language each). */
export const PUBLIC_PAGES = [
  '/',
  '/terms',
  '/privacy',
  '/eula',
  '/rgpd',
  '/support',
  '/about',
  '/careers',
  '/press',
  '/blog',
] as const;

/** The referral and download landing: one prerendered page served for all of its paths. */
export const LANDING_PAGE = '/download';

/** Breakpoints of the theme in px (docs/product/rules-and-constants.md#look-and-feel). */
export const BREAKPOINTS = { xs: 480, sm: 640, md: 768, lg: 1024, xl: 1280, '2xl': 1536 } as const;

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}
