import { describe, expect, it } from 'vitest';
import { labelStep, labelledIndexes, layoutBars, placeLabels, scaleTop } from './bar-chart-layout';

// The bar chart's arithmetic: scales, bar geometry, which points are labelled at a width — for the
// dashboard's 30 days (labels a week apart) and the console's 12 months.

describe('scaleTop', () => {
  it('rounds up to 1, 2 or 5 × 10ⁿ, and is 1 for an empty panel', () => {
    expect([0, 1, 2, 3, 7, 10, 11, 40, 51, 99, 101, 4_800].map(scaleTop)).toEqual([
      1, 1, 2, 5, 10, 10, 20, 50, 100, 100, 200, 5_000,
    ]);
    expect([0, 1, 2, 3, 7, 10, 11, 26, 99, 101, 480].map(scaleTop)).toEqual([
      1, 1, 2, 5, 10, 10, 20, 50, 100, 200, 500,
    ]);
    expect(scaleTop(-3)).toBe(1);
    expect(scaleTop(Number.NaN)).toBe(1);
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

  it('puts each month in the middle of its band, its height scaled to the top', () => {
    const bars = layoutBars([5, 10], 10, { left: 40, top: 20, width: 200, height: 50 }, 0.62);
    expect(bars.map((bar) => bar.centre)).toEqual([90, 190]);
    expect(bars.map((bar) => bar.height)).toEqual([25, 50]);
    expect(bars.map((bar) => bar.y + bar.height)).toEqual([70, 70]);
    expect(bars[0]!.x + bars[0]!.width / 2).toBe(90);
  });

  it('draws no bar for no value', () => {
    expect(layoutBars([], 10, area)).toEqual([]);
  });
});

describe('month labels', () => {
  it('labels every month when there is room, fewer on a phone, always the current month', () => {
    expect(labelStep(80, 30)).toBe(1);
    expect(labelStep(21, 35)).toBe(2);
    expect(labelStep(12, 35)).toBe(4);
    expect(labelledIndexes(12, 1)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(labelledIndexes(12, 2)).toEqual([1, 3, 5, 7, 9, 11]);
    expect(labelledIndexes(12, 5)).toEqual([1, 6, 11]);
  });
});

describe('day labels', () => {
  /** A day label ("17 nov." or "Nov 17") taken as 66 px: with the gap, 72 px between two labels. */
  const labelEvery = (band: number) => labelStep(band, 66, 7);

  it('labels the last day and every seventh day before it', () => {
    expect(labelledIndexes(30, 7)).toEqual([1, 8, 15, 22, 29]);
    expect(labelledIndexes(3, 7)).toEqual([2]);
    expect(labelledIndexes(0, 7)).toEqual([]);
  });

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

describe('placeLabels', () => {
  // Ten bars 20 px apart across 200 px, labels 30 px wide.
  const bars = layoutBars(
    Array.from({ length: 10 }, () => 1),
    1,
    { left: 0, top: 0, width: 200, height: 10 },
  );

  it('centres the labels under their bars while they fit', () => {
    expect(placeLabels(bars, [1, 4, 7], 30, 200)).toEqual([
      { index: 1, x: 30, anchor: 'middle' },
      { index: 4, x: 90, anchor: 'middle' },
      { index: 7, x: 150, anchor: 'middle' },
    ]);
  });

  it('ends the last label at its bar rather than past the edge, and drops one it would then touch', () => {
    expect(placeLabels(bars, [3, 7, 9], 30, 200)).toEqual([
      { index: 3, x: 70, anchor: 'middle' },
      { index: 9, x: 197, anchor: 'end' },
    ]);
    expect(placeLabels(bars, [1, 5, 9], 30, 200).map((label) => label.index)).toEqual([1, 5, 9]);
  });
});
