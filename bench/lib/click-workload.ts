// A realistic landing-page workload: distinct visitors spread over many referral codes, some
// unknown codes, some repeat visits, phones of both kinds.

export const SINGLE_INSERT_PATH = '/bench/single-insert';
export const CLICK_FUNCTION_PATH = '/api/fn/storePreInstallData';
export const ROW_COUNT_PATH = '/bench/rows';
/** A route that answers at once: on the product's app (its hooks) and on a bare Fastify. */
export const NOOP_PATH = '/bench/noop';

/** Referral codes seeded in the benchmark database. */
export const BENCH_CODES = Array.from({ length: 200 }, (_, i) => `BENCH${String(i).padStart(3, '0')}`);

/** The browsers of the visits: a phone of each kind. */
export const AGENTS = {
  ios: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
} as const;

/** What the landing page sends for one visit of `code` (storePreInstallData's `data`). */
export function visitData(visit: {
  sessionId: string;
  platform: keyof typeof AGENTS;
  code: string;
  query: Record<string, string>;
}) {
  const { sessionId, platform, code, query } = visit;
  return {
    fingerprint: {
      userAgent: AGENTS[platform],
      language: 'fr-FR',
      timezone: 'Europe/Paris',
      screenResolution: platform === 'ios' ? '390x844' : '412x915',
      platform,
      colorDepth: 24,
      deviceMemory: platform === 'ios' ? null : 8,
      hardwareConcurrency: 8,
      sessionId,
      timestamp: new Date().toISOString(),
      referrer: 'https://www.instagram.com/',
    },
    deeplink: { type: 'ref', code, fullPath: `/ref/${code}` },
    path: `/ref/${code}`,
    query,
  };
}

let sequence = 0;

/** The JSON body of the next visit: a new visitor, except every fifth visit repeats a recent one. */
export function nextVisitBody(runId: string): string {
  sequence += 1;
  const visitor = sequence % 5 === 0 ? sequence - 3 : sequence;
  const platform = visitor % 2 === 0 ? 'ios' : 'android';
  const code = sequence % 10 === 0 ? `UNKNOWN${sequence % 97}` : BENCH_CODES[visitor % BENCH_CODES.length]!;
  return JSON.stringify({
    data: visitData({
      sessionId: `${runId}-visitor-${String(visitor).padStart(8, '0')}`,
      platform,
      code,
      query: { utm_source: 'instagram', utm_medium: 'social' },
    }),
  });
}

export function userAgentOf(body: string): string {
  return body.includes('"platform":"ios"') ? AGENTS.ios : AGENTS.android;
}
