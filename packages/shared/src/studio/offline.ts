import type { Language } from '../site/constants.ts';
import { STUDIO_HOME } from './constants.ts';

// The web app offline and installable (ADR 011): its service worker, its web app manifest and its icons.
// The build (which writes the worker), the server (which serves it) and the page (which registers it)
// read these addresses from here.

/**
 * The service worker's script. It sits at the site's root because a worker cannot control a page above
 * its own folder: `/studio/sw.js` could never control `/studio` itself.
 */
export const STUDIO_SW_PATH = '/studio-sw.js';
/**
 * What the worker controls: every address that starts with `/studio` — the app's pages and the analysis
 * worker's folder (below) — and none of the public site's.
 */
export const STUDIO_SW_SCOPE = STUDIO_HOME;
/**
 * The analysis worker's folder. A dedicated worker is controlled by the service worker whose scope
 * covers the worker's own address, not its page's: under `/assets/` it would fetch the models from the
 * network even offline; here it gets them from the service worker's cache.
 */
export const STUDIO_WORKER_DIR = '/studio-assets/';
/** The web app manifest; `?lang=` chooses its language (browsers fetch manifests without cookies). */
export const STUDIO_MANIFEST_PATH = '/studio.webmanifest';
/**
 * Filled in by the server in the worker's script: a digest of the app's pages and manifests as they are
 * served (build and configuration), so a change of either updates the app.
 */
export const STUDIO_REVISION_TOKEN = '%%SK:studioRevision%%';

/** The site's tokens (apps/web/app/styles/global.css): `--color-primary`, as the pages' theme-color, and `--color-bg`. */
export const STUDIO_THEME_COLOR = '#504099';
export const STUDIO_BACKGROUND_COLOR = '#ffffff';

export interface StudioIcon {
  path: string;
  size: number;
  purpose: 'any' | 'maskable';
}

/** PNG icons made from the favicon by apps/web/scripts/make-app-icons.ts (files in apps/web/public). */
export const STUDIO_ICONS: readonly StudioIcon[] = [
  { path: '/studio-icon-192.png', size: 192, purpose: 'any' },
  { path: '/studio-icon-512.png', size: 512, purpose: 'any' },
  { path: '/studio-icon-maskable-512.png', size: 512, purpose: 'maskable' },
];

/** The address of a page of the app in one language: how the service worker keeps each language apart. */
export function studioPageInLanguage(pagePath: string, lang: Language): string {
  return `${pagePath}?lang=${lang}`;
}

export function studioManifestUrl(lang: Language): string {
  return `${STUDIO_MANIFEST_PATH}?lang=${lang}`;
}

/** The manifest's words in one language (from the `studio` strings). */
export interface StudioManifestTexts {
  name: string;
  shortName: string;
  description: string;
}

/** The web app manifest (https://www.w3.org/TR/appmanifest/) in one language. */
export function studioWebManifest(lang: Language, texts: StudioManifestTexts) {
  return {
    id: STUDIO_HOME,
    name: texts.name,
    short_name: texts.shortName,
    description: texts.description,
    lang,
    dir: 'ltr',
    start_url: STUDIO_HOME,
    scope: STUDIO_SW_SCOPE,
    display: 'standalone',
    theme_color: STUDIO_THEME_COLOR,
    background_color: STUDIO_BACKGROUND_COLOR,
    icons: STUDIO_ICONS.map((icon) => ({
      src: icon.path,
      sizes: `${icon.size}x${icon.size}`,
      type: 'image/png',
      purpose: icon.purpose,
    })),
  };
}
