import type { DailyActivity } from '@skanova/shared/affiliate/stats';

// The data behind the overview's activity chart: the server's days made continuous (a day without
// activity is a zero, never a gap that would shift the bars), a rounded scale, and bar geometry.
// Pure functions, so the mapping is tested without drawing anything.

const DAY_MS = 24 * 60 * 60 * 1000;

function dayNumber(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

function dayString(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Days sorted, duplicates summed, missing days between the first and the last filled with zeros. */
export function continuousDays(days: readonly DailyActivity[]): DailyActivity[] {
  const byDay = new Map<number, DailyActivity>();
  for (const entry of days) {
    const day = dayNumber(entry.date);
    if (Number.isNaN(day)) continue;
    const known = byDay.get(day);
    byDay.set(day, {
      date: dayString(day),
      clicks: (known?.clicks ?? 0) + Math.max(0, entry.clicks),
      conversions: (known?.conversions ?? 0) + Math.max(0, entry.conversions),
    });
  }
  if (byDay.size === 0) return [];
  const numbers = [...byDay.keys()];
  const first = Math.min(...numbers);
  const last = Math.max(...numbers);
  const result: DailyActivity[] = [];
  for (let day = first; day <= last; day += 1)
    result.push(byDay.get(day) ?? { date: dayString(day), clicks: 0, conversions: 0 });
  return result;
}

/** The top of a scale: the smallest 1, 2 or 5 × 10ⁿ at least `value` (at least 1, so an empty chart has a scale). */
export function niceMax(value: number): number {
  if (!(value > 1)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
  value: number;
}

export interface BarArea {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** One bar per value, evenly spaced across the area, bottoms on its baseline, scaled to `max`. */
export function layoutBars(values: readonly number[], max: number, area: BarArea, fill = 0.7): Bar[] {
  if (values.length === 0) return [];
  const band = area.width / values.length;
  const width = band * fill;
  const baseline = area.top + area.height;
  return values.map((value, index) => {
    const height = max > 0 ? (Math.min(value, max) / max) * area.height : 0;
    return { x: area.left + index * band + (band - width) / 2, y: baseline - height, width, height, value };
  });
}

/**
 * How many days apart the axis labels stand: a week, or as many weeks as it takes for a label
 * (about `labelWidth` pixels of "17 nov." or "Nov 17" and a gap) to fit between two of them when
 * each day's band is `band` pixels wide, e.g. on a phone.
 */
export function labelEvery(band: number, labelWidth = 72): number {
  const week = 7;
  if (!(band > 0)) return week;
  return week * Math.max(1, Math.ceil(labelWidth / (band * week)));
}

/** Indexes of the days that get an axis label: the last day, then every `every` days back. */
export function labelledDayIndexes(count: number, every = 7): number[] {
  const indexes: number[] = [];
  for (let index = count - 1; index >= 0; index -= every) indexes.unshift(index);
  return indexes;
}

export interface ActivityTotals {
  clicks: number;
  conversions: number;
  /** The day with most clicks (the first one on a tie), or null without any click. */
  busiestDay: DailyActivity | null;
}

export function activityTotals(days: readonly DailyActivity[]): ActivityTotals {
  let busiestDay: DailyActivity | null = null;
  let clicks = 0;
  let conversions = 0;
  for (const day of days) {
    clicks += day.clicks;
    conversions += day.conversions;
    if (day.clicks > 0 && (!busiestDay || day.clicks > busiestDay.clicks)) busiestDay = day;
  }
  return { clicks, conversions, busiestDay };
}
