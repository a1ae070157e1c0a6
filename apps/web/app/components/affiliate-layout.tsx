import { Suspense, lazy } from 'react';
import { Outlet } from 'react-router';
import { SessionProvider } from '../lib/auth/session';
import type { RouteHandle } from '../lib/route-handle';
import './site-footer.css';
import './site-header.css';
import './affiliate-layout.css';

export const handle: RouteHandle = { i18n: ['affiliate'] };

// Header and footer are painted by the prerendered HTML and hydrate when their chunk arrives (it is
// requested at once): the first-load JavaScript of the affiliate pages stays within its budget
// (ADR 005), and the page itself hydrates without waiting for them.
const chromeChunk = () => import('./affiliate-chrome');
const AffiliateHeader = lazy(() => chromeChunk().then((module) => ({ default: module.AffiliateHeader })));
const AffiliateFooter = lazy(() => chromeChunk().then((module) => ({ default: module.AffiliateFooter })));
if (typeof document !== 'undefined') void chromeChunk();

/** Every /affiliate page (docs/product/routes-and-screens.md#affiliate-layout): its header and footer around the page, and the session. */
export default function AffiliateLayout() {
  return (
    <SessionProvider>
      <Suspense fallback={null}>
        <AffiliateHeader />
      </Suspense>
      <main id="main" className="affiliate-main fade-in" tabIndex={-1}>
        <Outlet />
      </main>
      <Suspense fallback={null}>
        <AffiliateFooter />
      </Suspense>
    </SessionProvider>
  );
}
