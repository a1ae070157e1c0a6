import { STUDIO_JOURNAL_PAGE } from '@skanova/shared/studio/constants';
import { type ConsentRecord, type ScanSummary, studioStore } from './storage';

// On a full page load the app read the device only after React: it hydrated, read the consent,
// rendered, and only then (the journal) read the scans — two reads, each after a render. These reads
// start instead when the app's chunk runs, and the device's storage answers while the page hydrates;
// the first page's hooks take them. They stand for the page the visitor opened only: the app's first
// navigation drops any left, and every later read is a fresh one.

interface EarlyReads {
  consent?: Promise<ConsentRecord | undefined> | undefined;
  scans?: Promise<ScanSummary[]> | undefined;
}

let early: EarlyReads = {};
/** The scans' early read once it has answered, until a hook takes it (so that the page can start with them). */
let settledScans: { scans: ScanSummary[] } | undefined;

/** Starts the reads the page at `path` begins with. */
export function startEarlyReads(path: string): void {
  const store = studioStore();
  early = { consent: store.consent(), scans: path === STUDIO_JOURNAL_PAGE ? store.listScans() : undefined };
  // The hook that takes a read reports its failure; one nobody takes must not be an unhandled rejection.
  for (const read of [early.consent, early.scans]) read?.catch(() => {});
  settledScans = undefined;
  const scans = early.scans;
  scans?.then(
    (value) => {
      if (early.scans === scans) settledScans = { scans: value };
    },
    () => {},
  );
}

/**
 * Resolves once the scans' early read has answered (or failed), at once when there is none: the journal's
 * chunk waits for it, so that the page opens on the scans instead of "Reading…" that they would push down.
 */
export function earlyScansSettled(): Promise<void> {
  return (early.scans ?? Promise.resolve()).then(
    () => {},
    () => {},
  );
}

/** The scans' early read if it has already answered, once; undefined otherwise (the hook reads them then). */
export function takeSettledScans(): ScanSummary[] | undefined {
  const settled = settledScans;
  if (!settled) return undefined;
  settledScans = undefined;
  early.scans = undefined;
  return settled.scans;
}

/** The read started for the opened page, once; undefined when it was taken, dropped or never started. */
export function takeEarlyRead<K extends keyof EarlyReads>(key: K): EarlyReads[K] {
  const read = early[key];
  early[key] = undefined;
  if (key === 'scans') settledScans = undefined;
  return read;
}

/** Forgets the reads no hook took: the visitor left the page they opened. */
export function dropEarlyReads(): void {
  early = {};
  settledScans = undefined;
}
