import { describe, expect, it } from 'vitest';
import type { AdminMonthActivity } from '@skanova/shared/admin/responses';
import { busiestMonth, labelStep, labelledMonths, monthBars, monthTotals, scaleTop } from './overview-chart-data';

// The 12-month chart's arithmetic: scales, bar geometry, which months are labelled at a width.

const month = (name: string, clicks: number, installs = 0, conversions = 0): AdminMonthActivity => ({
  month: name,
  clicks,
  installs,
  conversions,
});

describe('scaleTop', () => {
  it('rounds up to 1, 2 or 5 × 10ⁿ, and is 1 for an empty panel', () => {
    expect([0, 1, 2, 3, 7, 10, 11, 40, 51, 99, 101, 4_800].map(scaleTop)).toEqual([
      1, 1, 2, 5, 10, 10, 20, 50, 100, 100, 200, 5_000,
    ]);
    expect(scaleTop(-3)).toBe(1);
    expect(scaleTop(Number.NaN)).toBe(1);
  });
});

describe('monthBars', () => {
  it('puts each month in the middle of its band, its height scaled to the top', () => {
    const bars = monthBars([month('2025-05', 5), month('2025-06', 10)], 'clicks', 10, {
      left: 40,
      top: 20,
      width: 200,
      height: 50,
    });
    expect(bars.map((bar) => bar.centre)).toEqual([90, 190]);
    expect(bars.map((bar) => bar.height)).toEqual([25, 50]);
    expect(bars.map((bar) => bar.y + bar.height)).toEqual([70, 70]);
    expect(bars[0]!.x + bars[0]!.width / 2).toBe(90);
  });
});

describe('month labels', () => {
  it('labels every month when there is room, fewer on a phone, always the current month', () => {
    expect(labelStep(80, 30)).toBe(1);
    expect(labelStep(21, 35)).toBe(2);
    expect(labelStep(12, 35)).toBe(4);
    expect(labelledMonths(12, 1)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(labelledMonths(12, 2)).toEqual([1, 3, 5, 7, 9, 11]);
    expect(labelledMonths(12, 5)).toEqual([1, 6, 11]);
  });
});

describe('busiestMonth and monthTotals', () => {
  it('finds the month with most clicks (the earliest on a tie), none without clicks', () => {
    const months = [month('2025-04', 3, 1, 1), month('2025-05', 9, 2, 0), month('2025-06', 9, 0, 4)];
    expect(busiestMonth(months)?.month).toBe('2025-05');
    expect(busiestMonth([month('2025-06', 0, 3, 1)])).toBeNull();
    expect(monthTotals(months)).toEqual({ clicks: 21, installs: 3, conversions: 5 });
  });
});
