import { STUDIO_RESULT_PAGE, STUDIO_SCAN_PAGE } from '@skanova/shared/studio/constants';
import { SavedResultPage } from './saved-result-page';
import { ScanPage } from './scan-page';
import { StudioHome } from './studio-home';
import { StudioLayout } from './studio-layout';
import './studio.css';

/** The app's pages by path, in its layout: home and consent, a new scan, a saved scan; any other path is the home. */
export default function StudioPages({ path }: { path: string }) {
  return (
    <StudioLayout>
      {path === STUDIO_SCAN_PAGE ? <ScanPage /> : path === STUDIO_RESULT_PAGE ? <SavedResultPage /> : <StudioHome />}
    </StudioLayout>
  );
}
