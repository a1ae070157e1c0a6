import type { DailyActivity } from '@skanova/shared/affiliate/stats';

// The data behind the overview's activity chart: the server's days made continuous (a day without
// activity is a zero, never a gap that would shift the bars) and the figures of its summary.
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
