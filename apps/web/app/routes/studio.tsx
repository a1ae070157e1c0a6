import { useLocation } from 'react-router';
import { STUDIO_RESULT_PAGE, STUDIO_SCAN_PAGE } from '@skanova/shared/studio/constants';
import { SavedResultPage } from '../features/studio/saved-result-page';
import { ScanPage } from '../features/studio/scan-page';
import { StudioHome } from '../features/studio/studio-home';
import { StudioLayout } from '../features/studio/studio-layout';
import type { RouteHandle } from '../root';

export const handle: RouteHandle = { i18n: ['studio'] };

/** The web app's pages (ADR 010): home and consent, a new scan, a saved scan; any other path is the home. */
export default function StudioRoute() {
  const path = useLocation().pathname.replace(/\/+$/, '');
  return (
    <StudioLayout>
      {path === STUDIO_SCAN_PAGE ? <ScanPage /> : path === STUDIO_RESULT_PAGE ? <SavedResultPage /> : <StudioHome />}
    </StudioLayout>
  );
}
