import { Suspense, lazy } from 'react';
import { useLocation } from 'react-router';
import { studioPagePath } from '@skanova/shared/studio/constants';
import type { RouteHandle } from '../lib/route-handle';
import { RETURNING_HINT_SCRIPT } from '../features/studio/returning-hint';
// Its styles are in the prerendered page's head, so that it paints in place (studio-styles.ts).
import '../features/studio/studio-styles';

export const handle: RouteHandle = { i18n: ['studio'] };

// The web app (ADR 010). Its pages are painted by the prerendered HTML and hydrate when the app's frame
// arrives (requested at once), like the affiliate area's header; each page past the consent comes later,
// in a chunk of its own (features/studio/app-pages.ts). The route itself is a few hundred bytes, so the
// app's first load stays within the public pages' budget (ADR 005).
const pagesChunk = () => import('../features/studio/studio-pages');
const StudioPages = lazy(pagesChunk);
if (typeof document !== 'undefined') void pagesChunk();

export default function StudioRoute() {
  const path = studioPagePath(useLocation().pathname);
  // The frame's attribute may be set by the hint's script before hydration (returning-hint.ts).
  return (
    <div className="studio-app" suppressHydrationWarning>
      <script dangerouslySetInnerHTML={{ __html: RETURNING_HINT_SCRIPT }} />
      <Suspense fallback={null}>
        <StudioPages path={path} />
      </Suspense>
    </div>
  );
}
