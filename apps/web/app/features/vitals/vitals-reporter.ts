import { onConsent, readConsent } from '../../lib/consent';
import { siteConfig } from '../../lib/site-config';

// Web-vitals reporter (docs/product/calls-and-data.md#other-endpoints): only with the
// visitor's consent, for a sampled share of page views, as a cookie-less beacon to /api/vitals.
// The `web-vitals` library is loaded on demand, so it never weighs on the first load.

export const VITALS_ENDPOINT = '/api/vitals';
/** The server accepts at most this many metrics per request. */
const MAX_BATCH = 10;

export interface VitalsMetric {
  page: string;
  name: 'CLS' | 'FCP' | 'INP' | 'LCP' | 'TTFB';
  value: number;
  rating?: 'good' | 'needs-improvement' | 'poor';
}

interface Reporter {
  /** Starts measuring if the visitor consented and this page view is sampled; safe to call twice. */
  start(): void;
}

/** Whether this page view is reported: `rate` is the configured share (0–1; absent = all). */
export function isSampled(rate: number | undefined, random: () => number = Math.random): boolean {
  const share = typeof rate === 'number' && Number.isFinite(rate) ? Math.min(1, Math.max(0, rate)) : 1;
  return share > 0 && random() < share;
}

/** Sends metrics with a beacon (survives the page being closed), else a keep-alive fetch. */
export function sendMetrics(metrics: VitalsMetric[]): void {
  if (metrics.length === 0) return;
  const body = JSON.stringify(metrics.length === 1 ? metrics[0] : metrics);
  const blob = new Blob([body], { type: 'application/json' });
  if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(VITALS_ENDPOINT, blob)) return;
  void fetch(VITALS_ENDPOINT, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
    credentials: 'omit',
    keepalive: true,
  }).catch(() => {});
}

function createReporter(sampleRate: number | undefined): Reporter {
  let started = false;
  const queue: VitalsMetric[] = [];

  const flush = () => {
    const batch = queue.splice(0, queue.length);
    // Consent can be withdrawn after the library started: then nothing more leaves the page.
    if (readConsent() !== 'granted') return;
    for (let i = 0; i < batch.length; i += MAX_BATCH) sendMetrics(batch.slice(i, i + MAX_BATCH));
  };

  const record = (metric: { name: string; value: number; rating?: string }) => {
    queue.push({
      // The path only: queries may carry referral codes or other identifiers.
      page: window.location.pathname.slice(0, 200) || '/',
      name: metric.name as VitalsMetric['name'],
      value: Math.max(0, metric.value),
      ...(metric.rating ? { rating: metric.rating as VitalsMetric['rating'] } : {}),
    });
    // Most metrics become final when the page is hidden: send them while it still can.
    if (document.visibilityState === 'hidden' || queue.length >= MAX_BATCH) flush();
  };

  return {
    start() {
      if (started || readConsent() !== 'granted') return;
      started = true;
      if (!isSampled(sampleRate)) return;
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'hidden') flush();
      });
      window.addEventListener('pagehide', flush);
      import('web-vitals').then(
        ({ onCLS, onFCP, onINP, onLCP, onTTFB }) => {
          onCLS(record);
          onFCP(record);
          onINP(record);
          onLCP(record);
          onTTFB(record);
        },
        () => {
          // The chunk could not load (offline, new deployment): measuring is optional.
        },
      );
    },
  };
}

let reporter: Reporter | undefined;

/**
 * Called once after hydration (root.tsx). Starts now if the visitor already consented, or as soon
 * as they accept in the banner. Returns a function that stops listening for consent.
 */
export function startVitalsReporting(): () => void {
  if (typeof window === 'undefined') return () => {};
  reporter ??= createReporter(siteConfig.vitalsSampleRate);
  const current = reporter;
  current.start();
  return onConsent((choice) => {
    if (choice === 'granted') current.start();
  });
}
