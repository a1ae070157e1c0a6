import { useSyncExternalStore } from 'react';
import type { Workbox } from 'workbox-window';
import { STUDIO_SW_PATH, STUDIO_SW_SCOPE } from '@skanova/shared/studio/offline';

// The page's side of the app's service worker (ADR 011), with workbox-window: registered once per
// page load, from the app's pages only, once the visitor has consented and the page has loaded. A new
// version installs in the background and waits; the page learns it here and the visitor chooses when
// to reload (offline-support.tsx). Nothing here touches the visitor's data: the scans and the profile
// live in IndexedDB, which an update leaves alone.

/** `waiting`: a new version is installed and takes over at the next reload the visitor asks for. */
export type AppUpdateState = 'current' | 'waiting';

let state: AppUpdateState = 'current';
let workbox: Workbox | undefined;
let started = false;
/** The visitor asked for the new version: reload once it controls this page. */
let reloading = false;
const listeners = new Set<() => void>();

/** The page itself (tests replace its reload). */
export const currentPage = {
  reload: () => window.location.reload(),
};

function setState(next: AppUpdateState) {
  state = next;
  for (const listener of listeners) listener();
}

/** Registers the app's service worker; does nothing where the browser has none (or blocks it). */
export function startServiceWorker() {
  if (started || !('serviceWorker' in navigator)) return;
  started = true;
  afterPageLoad()
    .then(() => import('workbox-window'))
    .then(async ({ Workbox }) => {
      const wb = new Workbox(STUDIO_SW_PATH, { scope: STUDIO_SW_SCOPE });
      wb.addEventListener('waiting', () => setState('waiting'));
      wb.addEventListener('controlling', (event) => {
        if (reloading) currentPage.reload();
        // The new version took over from another tab: this page still runs the previous one.
        else if (event.isUpdate) setState('waiting');
      });
      workbox = wb;
      await wb.register();
      // An app left open (or installed) for days: look for a new version whenever it comes back into view.
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'visible') wb.update().catch(() => {});
      });
    })
    .catch(() => {
      // No service worker (private browsing, blocked, offline on a first visit): the app still works online.
    });
}

/**
 * Once the page has loaded: the worker's script, its installation and its copy of the app (about 6 MB)
 * do not compete with the page's own first paint and data.
 */
function afterPageLoad(): Promise<void> {
  if (document.readyState === 'complete') return Promise.resolve();
  return new Promise((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
}

/** Switches to the new version: the waiting worker takes over, then the page reloads. */
export async function applyAppUpdate() {
  const waiting = (await navigator.serviceWorker.getRegistration(STUDIO_SW_SCOPE))?.waiting;
  if (!waiting || !workbox) return currentPage.reload();
  reloading = true;
  workbox.messageSkipWaiting();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useAppUpdate(): AppUpdateState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => 'current',
  );
}
