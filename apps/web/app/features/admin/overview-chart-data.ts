import type { AdminMonthActivity } from '@skanova/shared/admin/responses';

// The arithmetic of the overview's 12-month chart, without drawing: where the bars stand, how tall
// the scale is, which months get a label at a given width, and which month was the busiest. The
// figures stay the server's: months arrive complete (zeros included), oldest first.

export type MonthSeries = 'clicks' | 'installs' | 'conversions';

export interface PlotBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface MonthBar {
  month: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** The middle of the month's band, where its label is centred. */
  centre: number;
}

/** The top of a scale for `value`: 1, 2 or 5 × 10ⁿ, at least 1 (an empty panel still has a scale). */
export function scaleTop(value: number): number {
  if (!(value > 1)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 5, 10].find((multiple) => multiple * power >= value) ?? 10) * power;
}

/** One bar per month across the box, each in the middle of its band, scaled to `top`. */
export function monthBars(months: readonly AdminMonthActivity[], series: MonthSeries, top: number, box: PlotBox) {
  const band = months.length > 0 ? box.width / months.length : 0;
  const width = Math.max(1, band * 0.62);
  const baseline = box.top + box.height;
  return months.map((entry, index): MonthBar => {
    const value = Math.max(0, entry[series]);
    const height = top > 0 ? (Math.min(value, top) / top) * box.height : 0;
    const centre = box.left + band * (index + 0.5);
    return { month: entry.month, x: centre - width / 2, y: baseline - height, width, height, centre };
  });
}

/** Months between two labels so that labels about `labelWidth` wide never touch at this band width. */
export function labelStep(band: number, labelWidth: number): number {
  if (band <= 0) return 1;
  return Math.max(1, Math.ceil((labelWidth + 6) / band));
}

/** Indexes of the labelled months: the last one (the current month), then every `step` back. */
export function labelledMonths(count: number, step: number): number[] {
  const indexes: number[] = [];
  for (let index = count - 1; index >= 0; index -= Math.max(1, step)) indexes.unshift(index);
  return indexes;
}

/** The month with the most clicks (the earliest on a tie), or null when no month has any. */
export function busiestMonth(months: readonly AdminMonthActivity[]): AdminMonthActivity | null {
  let busiest: AdminMonthActivity | null = null;
  for (const entry of months) if (entry.clicks > 0 && (!busiest || entry.clicks > busiest.clicks)) busiest = entry;
  return busiest;
}

export function monthTotals(months: readonly AdminMonthActivity[]): Record<MonthSeries, number> {
  const totals = { clicks: 0, installs: 0, conversions: 0 };
  for (const entry of months) {
    totals.clicks += entry.clicks;
    totals.installs += entry.installs;
    totals.conversions += entry.conversions;
  }
  return totals;
}

/** "2025-06" as the first instant of that UTC month. */
export function monthStart(month: string): Date {
  return new Date(`${month}-01T00:00:00.000Z`);
}
