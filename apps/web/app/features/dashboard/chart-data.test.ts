import { describe, expect, it } from 'vitest';
import { activityTotals, continuousDays, labelEvery, labelledDayIndexes, layoutBars, niceMax } from './chart-data';

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

describe('niceMax', () => {
  it('rounds the top of the scale up to 1, 2 or 5 × 10ⁿ', () => {
    expect([0, 1, 2, 3, 7, 10, 11, 26, 99, 101, 480].map(niceMax)).toEqual([1, 1, 2, 5, 10, 10, 20, 50, 100, 200, 500]);
  });
});

describe('layoutBars', () => {
  const area = { left: 10, top: 0, width: 100, height: 50 };

  it('scales the bars to the maximum and stands them on the baseline', () => {
    const bars = layoutBars([0, 5, 10, 20], 10, area, 0.5);
    expect(bars.map((bar) => bar.height)).toEqual([0, 25, 50, 50]);
    expect(bars.map((bar) => bar.y + bar.height)).toEqual([50, 50, 50, 50]);
    expect(bars.map((bar) => bar.x)).toEqual([16.25, 41.25, 66.25, 91.25]);
    expect(bars[0]!.width).toBe(12.5);
  });

  it('draws no bar for no value', () => {
    expect(layoutBars([], 10, area)).toEqual([]);
  });
});

describe('labelledDayIndexes', () => {
  it('labels the last day and every seventh day before it', () => {
    expect(labelledDayIndexes(30)).toEqual([1, 8, 15, 22, 29]);
    expect(labelledDayIndexes(3)).toEqual([2]);
    expect(labelledDayIndexes(0)).toEqual([]);
  });
});

describe('labelEvery', () => {
  it('labels every week while a week is wide enough for a label, else every other week or more', () => {
    // A wide screen: 30 days across ~900 px.
    expect(labelEvery(30)).toBe(7);
    // A phone: 30 days across ~230 px, a week is 54 px, narrower than a label.
    expect(labelEvery(230 / 30)).toBe(14);
    expect(labelEvery(3)).toBe(28);
    expect(labelEvery(0)).toBe(7);
  });

  it('leaves labels at least a label apart', () => {
    for (const band of [2, 5, 7.5, 10.3, 20, 40]) expect(labelEvery(band) * band).toBeGreaterThanOrEqual(72);
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
