import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { I18nextProvider } from './lib/react-i18n';
import { HydratedRouter } from 'react-router/dom';
import { landingRedirectPath } from '@skanova/shared/landing/landing-path';
import { initBrowserI18n } from './lib/i18n';

// The landing page is prerendered once, at /download; the server also sends it for /ref/CODE and
// /app/TYPE[/CODE]. Rewrite those addresses to the canonical referral link before the router
// starts, so hydration matches the prerendered route (the original path is kept in history state).
const canonical = landingRedirectPath(window.location.pathname, window.location.search);
if (canonical)
  window.history.replaceState({ originalPath: window.location.pathname + window.location.search }, '', canonical);

const i18n = initBrowserI18n();

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <HydratedRouter />
      </I18nextProvider>
    </StrictMode>,
  );
});
