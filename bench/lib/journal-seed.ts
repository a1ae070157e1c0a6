import type { Page } from '@playwright/test';
import type { Analysis, CaptureConditions, GateReading, MetricId, Point } from '../../packages/skin/src/contract.ts';
import { CONSENT_TEXT_VERSION, STUDIO_DB_NAME, STUDIO_DB_VERSION } from '../../apps/web/app/features/studio/storage.ts';

// Saved scans written straight into the web app's IndexedDB, as the app itself writes them
// (storage.ts ScanRecord): for the journal's benchmark (journal-records.ts makes 200 of them from a
// real analysis) and its browser tests (a few with chosen scores). Nothing here runs the analysis.

/** What every seeded scan shares: an analysis, its gates and landmarks, a preview and a photo. */
export interface JournalTemplate {
  analysis: Analysis;
  gates: readonly GateReading[];
  landmarks: readonly Point[];
  thumbnailFrame: { x: number; y: number; width: number; height: number };
  /** Base64 JPEGs. */
  thumbnail: string;
  photo: string;
}

export interface JournalEntry {
  id: string;
  takenAt: string;
  source: 'camera' | 'upload';
  keepPhoto: boolean;
  overall: Record<MetricId, number>;
  zones: Record<string, Partial<Record<MetricId, number>>>;
  /** How this photo was taken, when not as the template's (another light: a scan not comparable). */
  conditions?: CaptureConditions;
}

/** The app's database as storage.ts names it. */
const STUDIO_DB = { name: STUDIO_DB_NAME, version: STUDIO_DB_VERSION, consentVersion: CONSENT_TEXT_VERSION };

/**
 * What runs in the page (after the app opened its database): consent given, then every entry as a
 * saved scan, in one transaction, as storage.ts stores it (`toStoredScan`: shapes packed in Float32Arrays). Plain JavaScript in a string: the TypeScript loader of the
 * benchmarks adds helpers to functions that do not exist in the page.
 */
const SEED_IN_PAGE = `async ({ template, entries, db }) => {
  const blob = (base64) => new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], { type: 'image/jpeg' });
  const thumbnail = blob(template.thumbnail);
  const photo = blob(template.photo);
  const packed = (points) => Float32Array.from(points.flat());
  const zones = template.analysis.zones.map((zone) => ({ ...zone, outline: zone.outline.map(packed) }));
  const landmarks = packed(template.landmarks);
  // The app's pages are prerendered with the consent, so a heading on the screen does not mean the app
  // has run yet: wait until it has created its database (an open at the same version then waits for
  // the app's upgrade to finish), or this open would create an empty one.
  while (!(await indexedDB.databases()).some((known) => known.name === db.name)) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const connection = await new Promise((resolve, reject) => {
    const open = indexedDB.open(db.name, db.version);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => resolve(open.result);
  });
  const tx = connection.transaction(['consents', 'scans'], 'readwrite');
  tx.objectStore('consents').put({
    kind: 'facial-data',
    ageConfirmed: true,
    givenAt: new Date(Date.parse(entries[0] ? entries[0].takenAt : new Date().toISOString()) - 60000).toISOString(),
    textVersion: db.consentVersion,
  });
  for (const entry of entries) {
    tx.objectStore('scans').put({
      id: entry.id,
      takenAt: entry.takenAt,
      source: entry.source,
      analysisVersion: template.analysis.version,
      modelVersion: 'bench',
      gates: template.gates,
      analysis: {
        ...template.analysis,
        ...(entry.conditions ? { conditions: entry.conditions } : {}),
        overall: entry.overall,
        zones: zones.map((zone) => ({ ...zone, metrics: entry.zones[zone.zone] || zone.metrics })),
      },
      landmarks,
      thumbnail,
      thumbnailFrame: template.thumbnailFrame,
      ...(entry.keepPhoto ? { photo } : {}),
    });
  }
  await new Promise((resolve, reject) => {
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
  connection.close();
}`;

/** Writes `entries` into the app's database in `page` (open a page of the app first: it creates the database; this waits for it). */
export async function seedJournal(page: Page, template: JournalTemplate, entries: JournalEntry[]): Promise<void> {
  const args = { template, entries, db: STUDIO_DB };
  await page.evaluate(`(${SEED_IN_PAGE})(${JSON.stringify(args)})`);
}
