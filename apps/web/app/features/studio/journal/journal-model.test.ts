import { describe, expect, it } from 'vitest';
import type { Analysis, MetricId, ZoneId } from '@skanova/skin/contract';
import { noiseFloor } from '@skanova/skin/trend';
import {
  type JournalScan,
  DEFAULT_REMINDER_TIME,
  buildSeries,
  changesBetween,
  countVerdicts,
  firstReminder,
  metricsAt,
  nextScanDue,
  realChanges,
  scoreAxis,
  timeTicks,
} from './journal-model';

// Fixed scan histories. The floors are the shipped measurements (noise-floors.json): face-wide
// texture 1.4, left-cheek evenness 2.9, nose redness 0.8 (1 once the one-point minimum applies).

const OVERALL = { redness: 20, evenness: 60, shine: 10, texture: 30, darkCircles: 40 };

function scan(
  id: string,
  takenAt: string,
  overall: Partial<Record<MetricId, number>> = {},
  zones: Partial<Record<ZoneId, Partial<Record<MetricId, number>>>> = {},
  version = 'skin-1',
): JournalScan {
  const analysis: Analysis = {
    version,
    width: 800,
    height: 1000,
    pxPerMm: 4,
    overall: { ...OVERALL, ...overall },
    zones: Object.entries(zones).map(([zone, metrics]) => ({
      zone: zone as ZoneId,
      outline: [],
      pixels: 1000,
      metrics,
    })),
  };
  return { id, takenAt, analysis };
}

describe('a metric series against its noise floor', () => {
  it('uses the measured floors the app ships', () => {
    expect(noiseFloor('texture', 'overall')).toBe(1.4);
    expect(noiseFloor('evenness', 'leftCheek')).toBe(2.9);
    expect(noiseFloor('redness', 'nose')).toBe(1);
  });

  it('calls a change just below the floor stable and one just above it a change (texture: up is worse)', () => {
    const series = buildSeries(
      [
        scan('c', '2026-11-25T09:00:00.000Z', { texture: 32.8 }),
        scan('a', '2026-11-11T09:00:00.000Z', { texture: 30 }),
        scan('b', '2026-11-18T09:00:00.000Z', { texture: 31.3 }),
      ],
      'overall',
      'texture',
    );
    expect(series.floor).toBe(1.4);
    expect(series.points.map((point) => point.id)).toEqual(['a', 'b', 'c']);
    expect(series.points[0]!.change).toBeUndefined();
    // +1.3 < 1.4: stable. +1.5 ≥ 1.4: a real rise of texture, which is worse.
    expect(series.points[1]!.change).toMatchObject({ delta: expect.closeTo(1.3), verdict: 'stable' });
    expect(series.points[2]!.change).toMatchObject({ delta: expect.closeTo(1.5), verdict: 'worse', direction: 'up' });
    expect(series.sincePrevious).toBe(series.points[2]!.change);
    expect(series.sinceFirst).toMatchObject({ before: 30, after: 32.8, verdict: 'worse' });
    expect(series.leftOut).toBe(0);
  });

  it('reads the direction of each metric: more evenness is better', () => {
    const series = buildSeries(
      [
        scan('a', '2026-11-11T09:00:00.000Z', {}, { leftCheek: { evenness: 50 } }),
        scan('b', '2026-11-18T09:00:00.000Z', {}, { leftCheek: { evenness: 52.8 } }),
        scan('c', '2026-11-25T09:00:00.000Z', {}, { leftCheek: { evenness: 55.8 } }),
      ],
      'leftCheek',
      'evenness',
    );
    expect(series.points.map((point) => point.change?.verdict)).toEqual([undefined, 'stable', 'better']);
    expect(series.sinceFirst?.verdict).toBe('better');
  });

  it('holds a change of exactly the floor as a change, and a drop just under it as stable', () => {
    const series = buildSeries(
      [
        scan('a', '2026-11-04T09:00:00.000Z', {}, { nose: { redness: 30 } }),
        scan('b', '2026-11-11T09:00:00.000Z', {}, { nose: { redness: 31 } }),
        scan('c', '2026-11-18T09:00:00.000Z', {}, { nose: { redness: 30.05 } }),
      ],
      'nose',
      'redness',
    );
    expect(series.points.map((point) => point.change?.verdict)).toEqual([undefined, 'worse', 'stable']);
    expect(series.sinceFirst?.verdict).toBe('stable');
  });

  it('leaves out scans of other analysis versions and scans where the zone was not measured', () => {
    const series = buildSeries(
      [
        scan('old', '2026-10-01T09:00:00.000Z', {}, { chin: { texture: 10 } }, 'skin-0'),
        scan('a', '2026-11-04T09:00:00.000Z', {}, { chin: { texture: 20 } }),
        scan('b', '2026-11-11T09:00:00.000Z', {}, {}),
        scan('c', '2026-11-18T09:00:00.000Z', {}, { chin: { texture: 21 } }),
      ],
      'chin',
      'texture',
    );
    expect(series.points.map((point) => point.id)).toEqual(['a', 'c']);
    expect(series.leftOut).toBe(2);
  });

  it('has no change with a single scan, and no point without any', () => {
    const one = buildSeries([scan('a', '2026-11-04T09:00:00.000Z')], 'overall', 'shine');
    expect(one.points).toHaveLength(1);
    expect(one.sincePrevious).toBeUndefined();
    expect(one.sinceFirst).toBeUndefined();
    expect(buildSeries([], 'overall', 'shine').points).toEqual([]);
  });

  it('offers in each zone only the metrics measured there', () => {
    expect(metricsAt('overall')).toEqual(['redness', 'evenness', 'shine', 'texture', 'darkCircles']);
    expect(metricsAt('eyeArea')).toEqual(['texture', 'darkCircles']);
    expect(metricsAt('lipContour')).toEqual(['redness', 'evenness', 'texture']);
  });
});

describe('two scans compared', () => {
  const early = scan('early', '2026-11-04T09:00:00.000Z', { redness: 20, texture: 30 }, { nose: { redness: 40 } });
  const late = scan('late', '2026-11-18T09:00:00.000Z', { redness: 20.9, texture: 27 }, { nose: { redness: 45 } });

  it('puts the older scan first whatever the order asked', () => {
    const { before, after, changes } = changesBetween(late, early);
    expect([before.id, after.id]).toEqual(['early', 'late']);
    expect(changes.find((change) => change.metric === 'texture' && change.place === 'overall')).toMatchObject({
      delta: -3,
      verdict: 'better',
    });
  });

  it('counts the verdicts and lists the real changes, the largest against its floor first', () => {
    const { changes } = changesBetween(early, late);
    // Face-wide: redness +0.9 (floor 1: stable), texture −3 (floor 1.4: better), the rest unchanged;
    // nose redness +5 (floor 1: worse).
    expect(countVerdicts(changes)).toEqual({ better: 1, worse: 1, stable: 4 });
    expect(realChanges(changes).map((change) => `${change.place} ${change.metric} ${change.verdict}`)).toEqual([
      'nose redness worse',
      'overall texture better',
    ]);
  });

  it('compares nothing between analyses of different versions', () => {
    expect(changesBetween(early, scan('other', '2026-11-25T09:00:00.000Z', {}, {}, 'skin-2')).changes).toEqual([]);
  });
});

describe('the next weekly scan', () => {
  // 23:30 UTC is already the next day in Paris, still the same day in New York.
  const latest = '2026-11-25T23:30:00.000Z';

  it('is due a week after the latest scan, on the visitor calendar', () => {
    expect(nextScanDue(latest, new Date('2026-11-27T12:00:00Z'), 'Europe/Paris')).toMatchObject({
      due: { year: 2026, month: 12, day: 3 },
      status: 'upcoming',
      days: 6,
    });
    expect(nextScanDue(latest, new Date('2026-11-27T12:00:00Z'), 'America/New_York')).toMatchObject({
      due: { year: 2026, month: 12, day: 2 },
      status: 'upcoming',
      days: 5,
    });
  });

  it('says today on the due day and overdue after it, by calendar day', () => {
    const evening = new Date('2026-12-02T22:00:00Z');
    expect(nextScanDue(latest, evening, 'Europe/Paris')).toMatchObject({ status: 'upcoming', days: 1 });
    expect(nextScanDue(latest, evening, 'America/New_York')).toMatchObject({ status: 'today', days: 0 });
    expect(nextScanDue(latest, new Date('2026-12-05T10:00:00Z'), 'America/New_York')).toMatchObject({
      status: 'overdue',
      days: 3,
    });
  });

  it('counts days across a daylight-saving change', () => {
    // Paris leaves summer time on 25 October 2026.
    expect(nextScanDue('2026-10-20T08:00:00Z', new Date('2026-10-26T08:00:00Z'), 'Europe/Paris')).toMatchObject({
      due: { year: 2026, month: 10, day: 27 },
      status: 'upcoming',
      days: 1,
    });
  });

  it('puts the first reminder on the due day, or from today when overdue, always ahead of now', () => {
    const upcoming = nextScanDue(latest, new Date('2026-11-27T12:00:00Z'), 'Europe/Paris');
    expect(firstReminder(upcoming, 13 * 60, DEFAULT_REMINDER_TIME)).toEqual({ year: 2026, month: 12, day: 3 });
    const dueToday = nextScanDue(latest, new Date('2026-12-03T07:00:00Z'), 'Europe/Paris');
    expect(firstReminder(dueToday, 8 * 60, DEFAULT_REMINDER_TIME)).toEqual({ year: 2026, month: 12, day: 3 });
    expect(firstReminder(dueToday, 9 * 60, DEFAULT_REMINDER_TIME)).toEqual({ year: 2026, month: 12, day: 10 });
    const overdue = nextScanDue(latest, new Date('2026-12-08T07:00:00Z'), 'Europe/Paris');
    expect(firstReminder(overdue, 8 * 60, DEFAULT_REMINDER_TIME)).toEqual({ year: 2026, month: 12, day: 8 });
    expect(firstReminder(overdue, 18 * 60, DEFAULT_REMINDER_TIME)).toEqual({ year: 2026, month: 12, day: 15 });
  });
});

describe('the chart axes', () => {
  it('labels a short history on Mondays at midnight', () => {
    const from = new Date(2026, 10, 12, 15, 0).getTime(); // a Thursday
    const { unit, ticks } = timeTicks(from, new Date(2026, 11, 3, 9, 0).getTime(), 10);
    expect(unit).toBe('week');
    expect(ticks.map((tick) => new Date(tick).getDate())).toEqual([9, 16, 23, 30]);
    for (const tick of ticks) expect([new Date(tick).getDay(), new Date(tick).getHours()]).toEqual([1, 0]);
    // Fewer labels: every other Monday.
    expect(
      timeTicks(from, new Date(2026, 11, 3, 9, 0).getTime(), 2).ticks.map((tick) => new Date(tick).getDate()),
    ).toEqual([9, 23]);
  });

  it('labels months, then years, as the history grows', () => {
    const from = new Date(2026, 1, 11).getTime();
    const year = timeTicks(from, new Date(2026, 11, 20).getTime(), 4);
    expect(year.unit).toBe('month');
    // Every 3 months on the calendar's quarters: April, July, October.
    expect(year.ticks.map((tick) => new Date(tick).getMonth())).toEqual([3, 6, 9]);
    for (const tick of year.ticks) expect(new Date(tick).getDate()).toBe(1);
    const fourYears = timeTicks(new Date(2023, 0, 25).getTime(), new Date(2026, 10, 18).getTime(), 3);
    expect(fourYears.unit).toBe('year');
    expect(fourYears.ticks.map((tick) => new Date(tick).getFullYear())).toEqual([2024, 2026]);
    expect(fourYears.ticks.length).toBeLessThanOrEqual(3);
  });

  it('spans at least 20 points around the values, in steps of 5, within 0–100', () => {
    expect(scoreAxis([41, 44])).toEqual({ min: 30, max: 55, step: 5 });
    expect(scoreAxis([2, 3])).toEqual({ min: 0, max: 20, step: 5 });
    expect(scoreAxis([97, 99])).toEqual({ min: 80, max: 100, step: 5 });
    expect(scoreAxis([10, 90])).toEqual({ min: 0, max: 100, step: 20 });
    expect(scoreAxis([])).toEqual({ min: 0, max: 100, step: 20 });
  });
});
