import { useCallback, useEffect, useRef, useState } from 'react';
import { takeEarlyRead, takeSettledScans } from '../early-reads';
import { type ScanSummary, studioStore } from '../storage';

/** The saved scans as the journal reads them from the device: newest first. */
export type JournalScans =
  | { status: 'loading' }
  /** The browser refused its storage (private browsing, storage disabled). */
  | { status: 'failed' }
  | { status: 'ready'; scans: readonly ScanSummary[] };

/** Reads every saved scan once the page is in the browser; `remove` deletes one and forgets it. */
export function useJournalScans(): { state: JournalScans; remove(id: string): Promise<void> } {
  // The page opened on the journal starts with the scans its early read already has (early-reads.ts).
  const [state, setState] = useState<JournalScans>(() => {
    const scans = takeSettledScans();
    return scans ? { status: 'ready', scans } : { status: 'loading' };
  });
  const startedReady = useRef(state.status === 'ready');
  useEffect(() => {
    if (startedReady.current) return;
    let live = true;
    (takeEarlyRead('scans') ?? studioStore().listScans()).then(
      (scans) => live && setState({ status: 'ready', scans }),
      () => live && setState({ status: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, []);
  const remove = useCallback(async (id: string) => {
    await studioStore().deleteScan(id);
    setState((current) =>
      current.status === 'ready' ? { status: 'ready', scans: current.scans.filter((scan) => scan.id !== id) } : current,
    );
  }, []);
  return { state, remove };
}
