import { negotiateLanguage } from '@skanova/shared/i18n/negotiate';
import { LANGUAGE_COOKIE } from '@skanova/shared/site/constants';
import { isStudioPage } from '@skanova/shared/studio/constants';
import { studioPageInLanguage } from '@skanova/shared/studio/offline';
import { PRECACHE } from 'virtual:studio-precache';
import { clientsClaim } from 'workbox-core';
import { addPlugins, cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';

// The web app's service worker (ADR 011), built into /studio-sw.js by scripts/build-service-worker.ts
// and controlling every address under /studio: the app's pages and the analysis worker. On install it
// keeps a copy of the app — its pages in both languages, their scripts and styles, the analysis
// worker, the models and the WebAssembly runtime — and from then on serves the app from that copy,
// with or without a network. A new version installs beside the running one and waits until the
// visitor reloads (offline-support.tsx); it never touches what the visitor stored (IndexedDB).

/** The worker's global scope (the project's types are the DOM's, not the worker's). */
const scope = self as unknown as {
  location: Location;
  navigator: Navigator;
  cookieStore?: CookieStore;
  skipWaiting(): Promise<void>;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
};

/** What workbox-window's `messageSkipWaiting()` sends when the visitor asks for the new version. */
const SKIP_WAITING = 'SKIP_WAITING';

/** The visitor's explicit language choice (the site's toggle keeps it in a cookie), where the browser lets a worker read it. */
async function languageCookie(): Promise<string | undefined> {
  try {
    return (await scope.cookieStore?.get(LANGUAGE_COOKIE))?.value ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * The app's pages, from the kept copy in the visitor's language, chosen as the server chooses it
 * (docs/product/rules-and-constants.md#languages): `?lang=`, then the toggle's cookie, then the browser's languages. An explicit `?lang=`
 * goes to the server first while it answers, so that it remembers the choice.
 */
registerRoute(
  ({ request, url }) =>
    request.mode === 'navigate' &&
    url.origin === scope.location.origin &&
    isStudioPage(url.pathname.replace(/(.)\/+$/, '$1')),
  async ({ request, url }) => {
    const query = url.searchParams.get('lang') ?? undefined;
    if (query !== undefined) {
      try {
        return await fetch(request);
      } catch {
        // Offline: the kept copy below.
      }
    }
    const lang = negotiateLanguage({
      query,
      cookie: await languageCookie(),
      acceptLanguage: scope.navigator.languages.join(','),
    });
    const page = url.pathname.replace(/(.)\/+$/, '$1');
    return (await matchPrecache(studioPageInLanguage(page, lang))) ?? fetch(request);
  },
);

// The kept copy is the same for every visitor: nothing personal goes with its requests, and asking for
// a page in one language (`?lang=`) does not change the visitor's own choice (no cookie is sent or kept).
addPlugins([
  {
    requestWillFetch: async ({ request, event }) =>
      event?.type === 'install' ? new Request(request, { credentials: 'omit' }) : request,
  },
]);
// Everything else the app asks for: from the copy when it is there, from the network otherwise.
precacheAndRoute(PRECACHE, { cleanURLs: false, directoryIndex: '' });
cleanupOutdatedCaches();
// The first version takes charge of the open page at once (it was not controlled); later versions wait.
clientsClaim();

scope.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown } | null;
  if (data?.type === SKIP_WAITING) void scope.skipWaiting();
});
