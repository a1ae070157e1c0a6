import { STATS_CHART_DAYS } from './constants.ts';

// "The last 30 days" on the dashboard, defined once: the overview chart draws these days and the
// card `last30DaysCount` counts the qualified conversions of the same window, so the card always
// equals the sum of the chart's bars. The window is made of whole UTC days — today and the
// STATS_CHART_DAYS - 1 days before it — so every bar is a full day and nothing dated after today
// (a clock that runs ahead) is counted by one and not the other.

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ActivityWindow {
  /** 00:00 UTC of the first day shown (included). */
  start: Date;
  /** 00:00 UTC of tomorrow (excluded). */
  end: Date;
}

export function recentActivityWindow(now: Date): ActivityWindow {
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return { start: new Date(end - STATS_CHART_DAYS * DAY_MS), end: new Date(end) };
}
