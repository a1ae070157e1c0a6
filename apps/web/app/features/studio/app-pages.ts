import type { ComponentType } from 'react';
import {
  STUDIO_COMPARE_PAGE,
  STUDIO_CONSULTATION_PAGE,
  STUDIO_DATA_PAGE,
  STUDIO_JOURNAL_PAGE,
  STUDIO_RESULT_PAGE,
  STUDIO_ROUTINE_PAGE,
  STUDIO_SCAN_PAGE,
} from '@skanova/shared/studio/constants';
import { earlyScansSettled } from './early-reads';

// The app's pages past its home (docs/product/web-app.md#where-it-lives): the frame of each (its title,
// its class and the consent check, in studio-pages.tsx) is in the app's chunk; what it shows past the
// consent is a chunk of its own. A first visit — the consent, as every page is prerendered — hydrates
// without any of them, and a page's chunk is asked for only once the device holds a consent: at once on
// a device that has consented before (returning-hint.ts), else when the visitor consents or opens it.

export interface AppPage {
  /** The key of its title (studio strings). */
  title: string;
  /** Its own class, beside `container studio-page`. */
  className?: string;
  /** Its content, past the consent check. */
  load: () => Promise<{ default: ComponentType }>;
}

export const APP_PAGES: Readonly<Record<string, AppPage>> = {
  [STUDIO_SCAN_PAGE]: { title: 'meta.scanTitle', load: () => import('./scan-page') },
  [STUDIO_RESULT_PAGE]: { title: 'meta.resultTitle', load: () => import('./saved-result-page') },
  // Opened on the journal, it waits for the device's scans too: it then paints them at once (early-reads.ts).
  [STUDIO_JOURNAL_PAGE]: {
    title: 'meta.journalTitle',
    className: 'journal',
    load: () => Promise.all([import('./journal/journal-page'), earlyScansSettled()]).then(([page]) => page),
  },
  [STUDIO_COMPARE_PAGE]: {
    title: 'meta.compareTitle',
    className: 'journal',
    load: () => import('./journal/compare-page'),
  },
  [STUDIO_CONSULTATION_PAGE]: {
    title: 'meta.consultationTitle',
    className: 'consult',
    load: () => import('./consultation/consultation-page'),
  },
  [STUDIO_ROUTINE_PAGE]: {
    title: 'meta.routineTitle',
    className: 'routine',
    load: () => import('./routine/routine-page'),
  },
  [STUDIO_DATA_PAGE]: { title: 'meta.dataTitle', className: 'studio-data', load: () => import('./data/data-page') },
};

/** Asks for a page's chunk ahead of its opening (the bundler asks once); a failure is the page's to show. */
export function preloadAppPage(path: string): void {
  APP_PAGES[path]?.load().catch(() => {});
}
