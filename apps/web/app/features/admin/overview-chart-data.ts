import type { AdminMonthActivity } from '@skanova/shared/admin/responses';

// The figures behind the overview's 12-month chart: the totals and the busiest month for its
// summary. The figures stay the server's: months arrive complete (zeros included), oldest first.

export type MonthSeries = 'clicks' | 'installs' | 'conversions';

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
