import { useEffect, useState } from 'react';
import type { ConsultationProfile } from '@skanova/shared/studio/profile';
import { type ScanSummary, studioStore } from './storage';

/** What the result reads beside its own scan: the device's saved scans and the consultation's answers. */
export type ResultHistory =
  { status: 'loading' } | { status: 'ready'; scans: readonly ScanSummary[]; profile: ConsultationProfile | undefined };

/**
 * Reads the saved scans and the profile once. A browser that refuses its storage gives no history:
 * the result then reads as a first scan, without a routine.
 */
export function useResultHistory(): ResultHistory {
  const [history, setHistory] = useState<ResultHistory>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    const store = studioStore();
    Promise.all([store.listScans(), store.profile()]).then(
      ([scans, profile]) => live && setHistory({ status: 'ready', scans, profile }),
      () => live && setHistory({ status: 'ready', scans: [], profile: undefined }),
    );
    return () => {
      live = false;
    };
  }, []);
  return history;
}
