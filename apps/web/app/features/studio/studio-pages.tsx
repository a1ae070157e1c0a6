import { type ComponentType, useLayoutEffect, useRef } from 'react';
import {
  STUDIO_COMPARE_PAGE,
  STUDIO_CONSULTATION_PAGE,
  STUDIO_DATA_PAGE,
  STUDIO_JOURNAL_PAGE,
  STUDIO_RESULT_PAGE,
  STUDIO_ROUTINE_PAGE,
  STUDIO_SCAN_PAGE,
  studioPagePath,
} from '@skanova/shared/studio/constants';
import { ConsultationPage } from './consultation/consultation-page';
import { dropEarlyReads, startEarlyReads } from './early-reads';
import { DataPage } from './data/data-page';
import { ComparePage } from './journal/compare-page';
import { JournalPage } from './journal/journal-page';
import { RoutinePage } from './routine/routine-page';
import { SavedResultPage } from './saved-result-page';
import { ScanPage } from './scan-page';
import { StudioHome } from './studio-home';
import { StudioLayout } from './studio-layout';
import './studio.css';

const PAGES: Readonly<Record<string, ComponentType>> = {
  [STUDIO_SCAN_PAGE]: ScanPage,
  [STUDIO_RESULT_PAGE]: SavedResultPage,
  [STUDIO_JOURNAL_PAGE]: JournalPage,
  [STUDIO_COMPARE_PAGE]: ComparePage,
  [STUDIO_CONSULTATION_PAGE]: ConsultationPage,
  [STUDIO_ROUTINE_PAGE]: RoutinePage,
  [STUDIO_DATA_PAGE]: DataPage,
};

// The device's reads of the page the visitor opened start now, while the page hydrates (early-reads.ts).
if (typeof document !== 'undefined') startEarlyReads(studioPagePath(location.pathname));

/** The app's pages by path, in its layout; any other path is the home (consent, new scan, saved scans). */
export default function StudioPages({ path }: { path: string }) {
  const Page = PAGES[path] ?? StudioHome;
  const openedPath = useRef(path);
  // A layout effect: it runs before the next page's hooks start their reads.
  useLayoutEffect(() => {
    if (path !== openedPath.current) dropEarlyReads();
  }, [path]);
  return (
    <StudioLayout>
      <Page />
    </StudioLayout>
  );
}
