import { type ComponentType, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { STUDIO_SCAN_PAGE, studioPagePath } from '@skanova/shared/studio/constants';
import { useTranslation } from '../../lib/react-i18n';
import { APP_PAGES, type AppPage, loadOrReload, preloadAppPage } from './app-pages';
import { dropEarlyReads, startEarlyReads } from './early-reads';
import { hasConsentHint } from './returning-hint';
import { StudioAppPage } from './studio-app-page';
import { StudioHome } from './studio-home';
import { StudioLayout } from './studio-layout';
// Its styles, and the app's, come with the app's stylesheet, in the page's head (studio-styles.ts).

/** Each page's content once its chunk has arrived in this document. */
const CONTENTS = new Map<string, ComponentType>();

/** The analysis client, once an engine was started ahead of the capture page (stopped if the visitor leaves first). */
let engineAhead: Promise<typeof import('./analysis-client')> | undefined;

if (typeof document !== 'undefined') {
  const opened = studioPagePath(location.pathname);
  // The device's reads of the page the visitor opened start now, while the page hydrates (early-reads.ts).
  startEarlyReads(opened);
  // A device that has consented before will show the page: its chunk comes beside the reads (app-pages.ts),
  // and on the capture page the analysis's worker and models too (analysis-client.ts).
  if (hasConsentHint()) {
    preloadAppPage(opened);
    if (opened === STUDIO_SCAN_PAGE) {
      engineAhead = import('./analysis-client');
      engineAhead.then((client) => client.startAnalysisEngineAhead()).catch(() => {});
    }
  }
}

/** The app's pages by path, in its layout; any other path is the home (consent, new scan, saved scans). */
export default function StudioPages({ path }: { path: string }) {
  const openedPath = useRef(path);
  // A layout effect: it runs before the next page's hooks start their reads.
  useLayoutEffect(() => {
    if (path === openedPath.current) return;
    dropEarlyReads();
    // The engine started ahead serves the page the visitor opened; the capture page took it if it mounted.
    engineAhead?.then((client) => client.stopEngineStartedAhead()).catch(() => {});
    engineAhead = undefined;
  }, [path]);
  const page = APP_PAGES[path];
  return (
    <StudioLayout>
      {/* Keyed by path: each page checks the consent afresh, as the visitor may have withdrawn it. */}
      {page ? <AppPageFrame key={path} page={page} path={path} /> : <StudioHome />}
    </StudioLayout>
  );
}

/** A page's frame and consent check; its content (a chunk of its own) only past the consent. */
function AppPageFrame({ page, path }: { page: AppPage; path: string }) {
  const { t } = useTranslation('studio');
  return (
    <StudioAppPage path={path} title={t(page.title)} className={page.className}>
      <PageContent page={page} path={path} />
    </StudioAppPage>
  );
}

/**
 * The page's content, "Reading this device's storage…" until its chunk is here. Not React.lazy: a
 * suspended page's fallback, once shown, is replaced no sooner than 300 ms later (React throttles
 * Suspense reveals), though the chunk usually arrives beside the consent's read, a few milliseconds
 * after it (docs/benchmarks.md#the-web-app-in-the-browser). A chunk that fails to load is the route's
 * error, as a render's failure.
 */
function PageContent({ page, path }: { page: AppPage; path: string }) {
  const { t } = useTranslation('studio');
  const [Content, setContent] = useState(() => CONTENTS.get(path));
  const [, fail] = useState<never>();
  useEffect(() => {
    if (Content) return;
    let live = true;
    loadOrReload(page).then(
      (module) => {
        CONTENTS.set(path, module.default);
        if (live) setContent(() => module.default);
      },
      (error: unknown) => {
        if (live)
          fail(() => {
            throw error;
          });
      },
    );
    return () => {
      live = false;
    };
  }, [Content, page, path]);
  if (Content) return <Content />;
  return (
    <p className="studio-loading" role="status">
      {t('home.loading')}
    </p>
  );
}
