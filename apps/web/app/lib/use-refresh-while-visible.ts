import { useEffect, useRef } from 'react';

// A figure that refreshes on its own while the page is in sight (the Page Visibility API): every
// `intervalMs` while the document is visible, never while it is hidden (a tab in the background, a
// phone's screen off), and once on coming back when the last refresh is older than the interval.
// One timer at a time and one refresh at a time: a slow answer is waited for, not piled on.

/**
 * Calls `refresh` every `intervalMs` while the page is visible. `refresh` may return a promise: the
 * next call waits for it to settle. `lastRefreshedAt` (a time in ms, e.g. the query's `dataUpdatedAt`)
 * tells when the figure was last fetched, so coming back to the page refreshes only a stale figure.
 */
export function useRefreshWhileVisible(
  refresh: () => unknown,
  intervalMs: number,
  lastRefreshedAt: () => number = () => 0,
): void {
  // The latest callbacks, so that the timer is not restarted at every render.
  const refreshRef = useRef(refresh);
  const lastRef = useRef(lastRefreshedAt);
  useEffect(() => {
    refreshRef.current = refresh;
    lastRef.current = lastRefreshedAt;
  });

  useEffect(() => {
    let timer: ReturnType<typeof setInterval> | undefined;
    let busy = false;
    let last = lastRef.current();

    const run = () => {
      if (busy || document.visibilityState !== 'visible') return;
      busy = true;
      last = Date.now();
      void Promise.resolve()
        .then(() => refreshRef.current())
        .catch(() => undefined)
        .finally(() => {
          busy = false;
        });
    };
    const stop = () => {
      clearInterval(timer);
      timer = undefined;
    };
    const start = () => {
      if (timer !== undefined) return;
      if (Date.now() - Math.max(last, lastRef.current()) >= intervalMs) run();
      timer = setInterval(run, intervalMs);
    };
    const onVisibility = () => (document.visibilityState === 'visible' ? start() : stop());

    if (document.visibilityState === 'visible') {
      // The figure on screen is fresh: the first refresh waits a whole interval.
      last = Math.max(last, Date.now());
      start();
    }
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stop();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [intervalMs]);
}
