import { describe, expect, it } from 'vitest';
import { WINDOW_CONDITIONS } from '@skanova/shared/studio/test-support';
import type { Analysis, CaptureConditions, MetricId, ZoneId } from '@skanova/skin/contract';
import { type Place, noiseFloor } from '@skanova/skin/trend';
import {
  type JournalScan,
  DEFAULT_REMINDER_TIME,
  PLACES,
  buildSeries,
  changesBetween,
  countVerdicts,
  differencesOf,
  firstReminder,
  metricsAt,
  nextScanDue,
  realChanges,
  scoreAxis,
  timeTicks,
} from './journal-model';

// Fixed scan histories, their scores set against the floors the app ships (noise-floors.json, read
// through noiseFloor: the floors are re-measured whenever the analysis changes, the rules are not).

const OVERALL = { redness: 20, evenness: 60, shine: 10, texture: 30, darkCircles: 40 };
const floorOf = (metric: MetricId, place: Place) => noiseFloor(metric, place)!;

function scan(
  id: string,
  takenAt: string,
  overall: Partial<Record<MetricId, number>> = {},
  zones: Partial<Record<ZoneId, Partial<Record<MetricId, number>>>> = {},
  version = 'skin-1',
  conditions?: CaptureConditions,
): JournalScan {
  const analysis: Analysis = {
    version,
    ...(conditions ? { conditions } : {}),
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

/** A window in front, at arm's length, facing the camera. */
const ALIKE = WINDOW_CONDITIONS;

describe('a metric series against its noise floor', () => {
  it('uses the measured floors the app ships, never under one point', () => {
    for (const place of PLACES)
      for (const metric of metricsAt(place)) expect(floorOf(metric, place)).toBeGreaterThanOrEqual(1);
    expect(noiseFloor('shine', 'eyeArea')).toBeUndefined();
  });

  it('calls a change just below the floor stable and one just above it a change (texture: up is worse)', () => {
    const floor = floorOf('texture', 'overall');
    const series = buildSeries(
      [
        scan('c', '2026-11-25T09:00:00.000Z', { texture: 30 + 0.9 * floor + 1.1 * floor }),
        scan('a', '2026-11-11T09:00:00.000Z', { texture: 30 }),
        scan('b', '2026-11-18T09:00:00.000Z', { texture: 30 + 0.9 * floor }),
      ],
      'overall',
      'texture',
    );
    expect(series.floor).toBe(floor);
    expect(series.points.map((point) => point.id)).toEqual(['a', 'b', 'c']);
    expect(series.points[0]!.change).toBeUndefined();
    // Under the floor: stable. Over it: a real rise of texture, which is worse.
    expect(series.points[1]!.change).toMatchObject({ delta: expect.closeTo(0.9 * floor), verdict: 'stable' });
    expect(series.points[2]!.change).toMatchObject({
      delta: expect.closeTo(1.1 * floor),
      verdict: 'worse',
      direction: 'up',
    });
    expect(series.sincePrevious).toBe(series.points[2]!.change);
    expect(series.sinceFirst).toMatchObject({ before: 30, after: expect.closeTo(30 + 2 * floor), verdict: 'worse' });
    expect(series.leftOut).toBe(0);
  });

  it('reads the direction of each metric: more evenness is better', () => {
    const floor = floorOf('evenness', 'leftCheek');
    const series = buildSeries(
      [
        scan('a', '2026-11-11T09:00:00.000Z', {}, { leftCheek: { evenness: 50 } }),
        scan('b', '2026-11-18T09:00:00.000Z', {}, { leftCheek: { evenness: 50 + 0.9 * floor } }),
        scan('c', '2026-11-25T09:00:00.000Z', {}, { leftCheek: { evenness: 50 + 2 * floor } }),
      ],
      'leftCheek',
      'evenness',
    );
    expect(series.points.map((point) => point.change?.verdict)).toEqual([undefined, 'stable', 'better']);
    expect(series.sinceFirst?.verdict).toBe('better');
  });

  it('holds a change of exactly the floor as a change, and a drop just under it as stable', () => {
    const floor = floorOf('redness', 'nose');
    const series = buildSeries(
      [
        scan('a', '2026-11-04T09:00:00.000Z', {}, { nose: { redness: 30 } }),
        scan('b', '2026-11-11T09:00:00.000Z', {}, { nose: { redness: 30 + floor } }),
        scan('c', '2026-11-18T09:00:00.000Z', {}, { nose: { redness: 30.05 } }),
      ],
      'nose',
      'redness',
    );
    expect(series.points.map((point) => point.change?.verdict)).toEqual([undefined, 'worse', 'stable']);
    expect(series.sinceFirst?.verdict).toBe('stable');
  });

  it('calls a change beyond the floor unsure, with what differed, when the photos were not taken alike', () => {
    const floor = floorOf('texture', 'overall');
    const lamp = { ...ALIKE, light: 85 };
    const series = buildSeries(
      [
        scan('a', '2026-11-04T09:00:00.000Z', { texture: 30 }, {}, 'skin-2', ALIKE),
        scan('b', '2026-11-11T09:00:00.000Z', { texture: 30 + 3 * floor }, {}, 'skin-2', lamp),
        scan('c', '2026-11-18T09:00:00.000Z', { texture: 30 + 6 * floor }, {}, 'skin-2', lamp),
      ],
      'overall',
      'texture',
    );
    // b against a: another light, unsure; c against b: the same light, worse; c against a: unsure.
    expect(series.points.map((point) => point.change?.verdict)).toEqual([undefined, 'unsure', 'worse']);
    expect(series.points[1]!.change?.differences).toEqual(['light']);
    expect(series.sinceFirst).toMatchObject({ verdict: 'unsure', differences: ['light'] });
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
  const texture = floorOf('texture', 'overall');
  const redness = floorOf('redness', 'overall');
  const noseRedness = floorOf('redness', 'nose');
  const early = scan('early', '2026-11-04T09:00:00.000Z', { redness: 20, texture: 30 }, { nose: { redness: 40 } });
  const late = scan(
    'late',
    '2026-11-18T09:00:00.000Z',
    { redness: 20 + 0.9 * redness, texture: 30 - 2 * texture },
    { nose: { redness: 40 + 3 * noseRedness } },
  );

  it('puts the older scan first whatever the order asked', () => {
    const { before, after, changes } = changesBetween(late, early);
    expect([before.id, after.id]).toEqual(['early', 'late']);
    expect(changes.find((change) => change.metric === 'texture' && change.place === 'overall')).toMatchObject({
      delta: expect.closeTo(-2 * texture),
      verdict: 'better',
    });
  });

  it('counts the verdicts and lists the real changes, the largest against its floor first', () => {
    const { changes } = changesBetween(early, late);
    // Face-wide: redness 0.9 floors up (stable), texture 2 floors down (better), the rest unchanged;
    // nose redness 3 floors up (worse).
    expect(countVerdicts(changes)).toEqual({ better: 1, worse: 1, stable: 4, unsure: 0 });
    expect(realChanges(changes).map((change) => `${change.place} ${change.metric} ${change.verdict}`)).toEqual([
      'nose redness worse',
      'overall texture better',
    ]);
    expect(differencesOf(changes)).toEqual([]);
  });

  it('counts a change beyond the floor between photos not taken alike as neither better nor worse', () => {
    const before = { ...early, analysis: { ...early.analysis, version: 'skin-2', conditions: ALIKE } };
    const after = {
      ...late,
      analysis: {
        ...late.analysis,
        version: 'skin-2',
        conditions: { ...ALIKE, faceSize: 0.5, colourTemperature: 3000 },
      },
    };
    const { changes } = changesBetween(before, after);
    expect(countVerdicts(changes)).toEqual({ better: 0, worse: 0, stable: 4, unsure: 2 });
    expect(differencesOf(changes)).toEqual(['lightColour', 'distance']);
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
