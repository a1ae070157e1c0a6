import { type Analysis, METRIC_IDS, type MetricId, type ZoneId } from '@skanova/skin/contract';

// The result's short overall summary, from the numbers alone: the most and least marked face-wide
// indicators, and the highest zone score. Words come from i18n (result.summary).

export interface Summary {
  top: { metric: MetricId; value: number };
  bottom: { metric: MetricId; value: number };
  zone: { zone: ZoneId; metric: MetricId; value: number } | null;
}

export type Level = 'low' | 'moderate' | 'high';

/** Thirds of the 0–100 scale, for words beside the numbers. */
export function levelOf(value: number): Level {
  return value < 34 ? 'low' : value < 67 ? 'moderate' : 'high';
}

export function summarise(analysis: Analysis): Summary {
  const overall = METRIC_IDS.map((metric) => ({ metric, value: Math.round(analysis.overall[metric]) }));
  const byValue = [...overall].sort((a, b) => b.value - a.value);
  let zone: Summary['zone'] = null;
  for (const result of analysis.zones) {
    for (const metric of METRIC_IDS) {
      const value = result.metrics[metric];
      if (value === undefined) continue;
      if (!zone || Math.round(value) > zone.value) zone = { zone: result.zone, metric, value: Math.round(value) };
    }
  }
  return { top: byValue[0]!, bottom: byValue[byValue.length - 1]!, zone };
}
