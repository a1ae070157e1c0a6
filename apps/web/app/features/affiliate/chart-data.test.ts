import { describe, expect, it } from 'vitest';
import { activityTotals, continuousDays } from './chart-data';

const day = (date: string, clicks: number, conversions = 0) => ({ date, clicks, conversions });

describe('continuousDays', () => {
  it('sorts the days and fills the missing ones with zeros', () => {
    expect(continuousDays([day('2025-03-02', 4, 1), day('2025-02-27', 2)])).toEqual([
      day('2025-02-27', 2),
      day('2025-02-28', 0),
      day('2025-03-01', 0),
      day('2025-03-02', 4, 1),
    ]);
  });

  it('adds up a day given twice and ignores what is not a date', () => {
    expect(continuousDays([day('2025-01-01', 1, 1), day('2025-01-01', 2), day('yesterday', 9)])).toEqual([
      day('2025-01-01', 3, 1),
    ]);
  });

  it('keeps thirty days as thirty bars', () => {
    const days = Array.from({ length: 30 }, (_, index) =>
      day(new Date(Date.UTC(2025, 0, 20 + index)).toISOString().slice(0, 10), index),
    );
    const result = continuousDays(days);
    expect(result).toHaveLength(30);
    expect(result[0]!.date).toBe('2025-01-20');
    expect(result[29]!.date).toBe('2025-02-18');
  });

  it('gives nothing for nothing', () => {
    expect(continuousDays([])).toEqual([]);
  });
});

describe('activityTotals', () => {
  it('adds up the period and finds the busiest day (the first on a tie)', () => {
    const totals = activityTotals([day('2025-01-01', 3, 1), day('2025-01-02', 5), day('2025-01-03', 5, 2)]);
    expect(totals).toEqual({ clicks: 13, conversions: 3, busiestDay: day('2025-01-02', 5) });
  });

  it('has no busiest day without clicks', () => {
    expect(activityTotals([day('2025-01-01', 0)]).busiestDay).toBeNull();
  });
});
