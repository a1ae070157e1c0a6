// Web-vitals ratings (docs/product/calls-and-data.md#other-endpoints: operators see p75 per page). The thresholds are web.dev's: a value
// up to `good` is good, above `poor` is poor, in between needs improvement. CLS has no unit; the
// others are milliseconds.

export const VITAL_NAMES = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'] as const;
export type VitalName = (typeof VITAL_NAMES)[number];
export type VitalRating = 'good' | 'needs-improvement' | 'poor';

export const VITAL_THRESHOLDS: Record<VitalName, { good: number; poor: number }> = {
  LCP: { good: 2500, poor: 4000 },
  INP: { good: 200, poor: 500 },
  CLS: { good: 0.1, poor: 0.25 },
  FCP: { good: 1800, poor: 3000 },
  TTFB: { good: 800, poor: 1800 },
};

export function rateVital(name: VitalName, value: number): VitalRating {
  const { good, poor } = VITAL_THRESHOLDS[name];
  if (value <= good) return 'good';
  return value <= poor ? 'needs-improvement' : 'poor';
}

/** The window the vitals tab reads: the last `days` days, up to this many. */
export const VITALS_DEFAULT_DAYS = 7;
export const VITALS_MAX_DAYS = 90;
