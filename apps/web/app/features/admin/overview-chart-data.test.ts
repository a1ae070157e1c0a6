import { describe, expect, it } from 'vitest';
import type { AdminMonthActivity } from '@skanova/shared/admin/responses';
import { busiestMonth, monthTotals } from './overview-chart-data';

// The 12-month chart's summary: the busiest month and the totals (its geometry: components/bar-chart-layout.test.ts).

const month = (name: string, clicks: number, installs = 0, conversions = 0): AdminMonthActivity => ({
  month: name,
  clicks,
  installs,
  conversions,
});

describe('busiestMonth and monthTotals', () => {
  it('finds the month with most clicks (the earliest on a tie), none without clicks', () => {
    const months = [month('2025-04', 3, 1, 1), month('2025-05', 9, 2, 0), month('2025-06', 9, 0, 4)];
    expect(busiestMonth(months)?.month).toBe('2025-05');
    expect(busiestMonth([month('2025-06', 0, 3, 1)])).toBeNull();
    expect(monthTotals(months)).toEqual({ clicks: 21, installs: 3, conversions: 5 });
  });
});
