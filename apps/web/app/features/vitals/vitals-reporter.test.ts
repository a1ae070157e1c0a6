import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The web-vitals reporter measures only with consent, loads the library on demand, and sends the
// page path (never the query) with a beacon when the page is hidden.

type Callback = (metric: { name: string; value: number; rating?: string }) => void;
const callbacks: Callback[] = [];

// Every start registers five callbacks: their number tells whether (and how often) the library started.
vi.mock('web-vitals', () => {
  const register = (callback: Callback) => {
    callbacks.push(callback);
  };
  return { onCLS: register, onFCP: register, onINP: register, onLCP: register, onTTFB: register };
});

const beacon = vi.fn<(url: string, data: Blob) => boolean>(() => true);

async function loadModules() {
  vi.resetModules();
  const consent = await import('../../lib/consent');
  const reporter = await import('./vitals-reporter');
  return { ...consent, ...reporter };
}

function setHidden(hidden: boolean) {
  Object.defineProperty(document, 'visibilityState', {
    configurable: true,
    get: () => (hidden ? 'hidden' : 'visible'),
  });
  document.dispatchEvent(new Event('visibilitychange'));
}

async function flushPromises() {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

async function sentMetrics(): Promise<unknown[]> {
  const bodies = await Promise.all(beacon.mock.calls.map(([, blob]) => blob.text()));
  return bodies.flatMap((text) => {
    const body = JSON.parse(text) as unknown;
    return Array.isArray(body) ? body : [body];
  });
}

beforeEach(() => {
  callbacks.length = 0;
  beacon.mockClear();
  Object.defineProperty(navigator, 'sendBeacon', { configurable: true, value: beacon });
  document.cookie = 'consent=; Max-Age=0; Path=/';
  window.history.replaceState(null, '', '/support?ref=SECRET#faq');
  setHidden(false);
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('isSampled', () => {
  it('reports every view by default and none at 0', async () => {
    const { isSampled } = await loadModules();
    expect(isSampled(undefined, () => 0.999)).toBe(true);
    expect(isSampled(1, () => 0.999)).toBe(true);
    expect(isSampled(0, () => 0)).toBe(false);
    expect(isSampled(0.25, () => 0.2)).toBe(true);
    expect(isSampled(0.25, () => 0.3)).toBe(false);
    expect(isSampled(Number.NaN, () => 0.5)).toBe(true);
    expect(isSampled(-3, () => 0)).toBe(false);
  });
});

describe('startVitalsReporting', () => {
  it('does nothing, not even loading the library, without consent', async () => {
    const { startVitalsReporting } = await loadModules();
    startVitalsReporting();
    await flushPromises();
    expect(callbacks, 'web-vitals not started').toHaveLength(0);
    setHidden(true);
    expect(beacon).not.toHaveBeenCalled();
  });

  it('does nothing after a refusal', async () => {
    const { startVitalsReporting, saveConsent } = await loadModules();
    startVitalsReporting();
    saveConsent('denied');
    await flushPromises();
    expect(callbacks, 'web-vitals not started').toHaveLength(0);
  });

  it('starts when consent is granted later and sends the path only when the page is hidden', async () => {
    const { startVitalsReporting, saveConsent } = await loadModules();
    startVitalsReporting();
    saveConsent('granted');
    await flushPromises();
    expect(callbacks).toHaveLength(5);

    callbacks[0]!({ name: 'FCP', value: 812.4, rating: 'good' });
    callbacks[1]!({ name: 'TTFB', value: 40 });
    expect(beacon, 'metrics wait for the page to be hidden').not.toHaveBeenCalled();
    setHidden(true);
    expect(beacon).toHaveBeenCalledTimes(1);
    expect(beacon.mock.calls[0]![0]).toBe('/api/vitals');
    expect(beacon.mock.calls[0]![1].type).toBe('application/json');
    expect(await sentMetrics()).toEqual([
      { page: '/support', name: 'FCP', value: 812.4, rating: 'good' },
      { page: '/support', name: 'TTFB', value: 40 },
    ]);

    // A metric that becomes final while hidden leaves at once.
    callbacks[2]!({ name: 'CLS', value: 0.01, rating: 'good' });
    expect(beacon).toHaveBeenCalledTimes(2);
  });

  it('starts at once for a visitor who consented earlier, and only once', async () => {
    document.cookie = 'consent=granted; Path=/';
    const { startVitalsReporting, saveConsent } = await loadModules();
    const stop = startVitalsReporting();
    startVitalsReporting();
    saveConsent('granted');
    await flushPromises();
    expect(callbacks).toHaveLength(5);
    stop();
  });

  it('sends nothing more once consent is withdrawn', async () => {
    document.cookie = 'consent=granted; Path=/';
    const { startVitalsReporting, saveConsent } = await loadModules();
    startVitalsReporting();
    await flushPromises();
    callbacks[0]!({ name: 'LCP', value: 1000 });
    saveConsent('denied');
    setHidden(true);
    expect(beacon).not.toHaveBeenCalled();
  });

  it('sends batches of at most 10 metrics', async () => {
    document.cookie = 'consent=granted; Path=/';
    const { startVitalsReporting } = await loadModules();
    startVitalsReporting();
    await flushPromises();
    for (let i = 0; i < 12; i++) callbacks[i % 5]!({ name: 'INP', value: i });
    setHidden(true);
    expect(beacon).toHaveBeenCalledTimes(2);
    expect(await sentMetrics()).toHaveLength(12);
  });

  it('respects a sample rate of 0 from the site configuration', async () => {
    document.cookie = 'consent=granted; Path=/';
    const config = document.createElement('script');
    config.id = 'sk-config';
    config.type = 'application/json';
    config.textContent = JSON.stringify({ vitalsSampleRate: 0 });
    document.body.append(config);
    try {
      const { startVitalsReporting } = await loadModules();
      startVitalsReporting();
      await flushPromises();
      expect(callbacks, 'web-vitals not started').toHaveLength(0);
    } finally {
      config.remove();
    }
  });
});
