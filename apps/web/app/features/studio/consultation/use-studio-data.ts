import { useCallback, useEffect, useState } from 'react';
import type { ConsultationProfile } from '@skanova/shared/studio/profile';
import { type ScanSummary, studioStore } from '../storage';

/** The profile and the saved scans, as the consultation and the routine read them from the device. */
export type StudioData =
  | { status: 'loading' }
  | { status: 'failed' }
  | { status: 'ready'; profile: ConsultationProfile | undefined; scans: ScanSummary[] };

/** Reads the profile and the scans once; `saveProfile` stores new answers and shows them at once. */
export function useStudioData() {
  const [data, setData] = useState<StudioData>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    const store = studioStore();
    Promise.all([store.profile(), store.listScans()]).then(
      ([profile, scans]) => live && setData({ status: 'ready', profile, scans }),
      () => live && setData({ status: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, []);
  const saveProfile = useCallback(async (profile: ConsultationProfile) => {
    await studioStore().saveProfile(profile);
    setData((current) => (current.status === 'ready' ? { ...current, profile } : current));
  }, []);
  return { data, saveProfile };
}
