import { describe, expect, it } from 'vitest';
import { WINDOW_CONDITIONS } from '@skanova/shared/studio/test-support';
import type { Analysis, CaptureConditions, MetricId, ZoneId } from '@skanova/skin/contract';
import { noiseFloor } from '@skanova/skin/trend';
import type { JournalScan } from './journal-model';
import {
  latestChanges,
  notableChanges,
  placesOf,
  scansThisMonth,
  smallMultiples,
  weeksInARow,
} from './journal-summary';

// The journal's summary, small multiples and scan cards on fixed histories. Scores are set against the
// floors the app ships (noiseFloor), so the tests hold when the floors are re-measured.

const OVERALL = { redness: 20, evenness: 60, shine: 10, texture: 30, darkCircles: 40 };

function scan(
  id: string,
  takenAt: string,
  overall: Partial<Record<MetricId, number>> = {},
  options: { conditions?: CaptureConditions; version?: string; zones?: Partial<Record<ZoneId, number>> } = {},
): JournalScan {
  const analysis: Analysis = {
    version: options.version ?? 'skin-3',
    conditions: options.conditions ?? WINDOW_CONDITIONS,
    width: 800,
    height: 1000,
    pxPerMm: 4,
    overall: { ...OVERALL, ...overall },
    zones: Object.entries(options.zones ?? {}).map(([zone, redness]) => ({
      zone: zone as ZoneId,
      outline: [],
      pixels: 1000,
      metrics: { redness },
    })),
  };
  return { id, takenAt, analysis };
}

/** A lamp at night instead of the window: another light. */
const LAMP: CaptureConditions = { ...WINDOW_CONDITIONS, light: WINDOW_CONDITIONS.light - 25 };

describe('scans this month', () => {
  it('counts the scans of the visitor’s calendar month, in their time zone', () => {
    const scans = [
      scan('a', '2026-10-31T23:30:00Z'), // 1 November 00:30 in Paris, 31 October in Toronto
      scan('b', '2026-11-15T10:00:00Z'),
      scan('lastYear', '2025-11-15T10:00:00Z'), // November, but of last year
      scan('c', '2026-12-01T03:00:00Z'), // still 30 November in Toronto
    ];
    const now = new Date('2026-11-20T12:00:00Z');
    expect(scansThisMonth(scans, now, 'Europe/Paris')).toBe(2);
    expect(scansThisMonth(scans, now, 'America/Toronto')).toBe(2);
    expect(scansThisMonth(scans, new Date('2026-12-01T10:00:00Z'), 'Europe/Paris')).toBe(1);
    expect(scansThisMonth([], now, 'UTC')).toBe(0);
  });
});

describe('weeks in a row', () => {
  // Weeks run Monday to Sunday. 29 December 2026 is a Tuesday: that week spans the new year.
  const weekly = [
    scan('w1', '2026-12-16T09:00:00Z'), // Wed, week of 14 Dec
    scan('w2', '2026-12-23T09:00:00Z'), // Wed, week of 21 Dec
    scan('w3', '2026-12-29T09:00:00Z'), // Tue, week of 28 Dec
    scan('w4', '2027-01-05T09:00:00Z'), // Tue, week of 4 Jan
  ];

  it('counts consecutive calendar weeks across a year boundary, up to this week', () => {
    expect(weeksInARow(weekly, new Date('2027-01-07T12:00:00Z'), 'Europe/Paris')).toBe(4);
  });

  it('keeps the streak through last week while this week has no scan yet, and loses it after', () => {
    expect(weeksInARow(weekly, new Date('2027-01-12T12:00:00Z'), 'Europe/Paris')).toBe(4);
    expect(weeksInARow(weekly, new Date('2027-01-19T12:00:00Z'), 'Europe/Paris')).toBe(0);
  });

  it('stops at a missing week; two scans in one week count once', () => {
    const gap = [...weekly.filter((one) => one.id !== 'w2'), scan('w4b', '2027-01-06T09:00:00Z')];
    expect(weeksInARow(gap, new Date('2027-01-07T12:00:00Z'), 'Europe/Paris')).toBe(2);
  });

  it('reads the weeks on the visitor’s clock: Sunday night in Sydney is Monday there', () => {
    // Sunday 3 January 2027 14:00 UTC is Monday 4 January 01:00 in Sydney.
    const scans = [scan('x', '2026-12-28T09:00:00Z'), scan('y', '2027-01-03T14:00:00Z')];
    const now = new Date('2027-01-05T00:00:00Z');
    expect(weeksInARow(scans, now, 'Australia/Sydney')).toBe(2);
    expect(weeksInARow(scans, now, 'UTC')).toBe(1);
  });
});

describe('the summary’s changes', () => {
  const floor = noiseFloor('redness', 'overall')!;

  it('reads the newest scan against the last one taken alike, beyond the floor only', () => {
    const scans = [
      scan('first', '2026-11-01T09:00:00Z', { redness: 20 }),
      scan('lamp', '2026-11-08T21:00:00Z', { redness: 40 }, { conditions: LAMP }),
      scan('latest', '2026-11-15T09:00:00Z', { redness: 20 + floor + 1, texture: 30 + 0.5 }),
    ];
    const changes = latestChanges(scans)!;
    expect(changes.status).toBe('compared');
    if (changes.status !== 'compared') return;
    // Skips the lamp-lit scan: compared with the first one.
    expect(changes.previous.id).toBe('first');
    expect(changes.real.map((one) => [one.change.metric, one.kind])).toEqual([['redness', 'worse']]);
    expect(changes.total).toBe(5);
  });

  it('says "no real change" when every score moved less than its floor', () => {
    const scans = [
      scan('a', '2026-11-01T09:00:00Z', { redness: 20 }),
      scan('b', '2026-11-08T09:00:00Z', { redness: 20 + floor / 2 }),
    ];
    const changes = latestChanges(scans)!;
    expect(changes.status === 'compared' && changes.real).toEqual([]);
  });

  it('says why when no earlier scan was taken alike', () => {
    const lamp = [scan('a', '2026-11-01T09:00:00Z'), scan('b', '2026-11-08T21:00:00Z', {}, { conditions: LAMP })];
    expect(latestChanges(lamp)).toMatchObject({
      status: 'notComparable',
      otherAnalysis: false,
      differences: ['light'],
    });
    const version = [scan('a', '2026-11-01T09:00:00Z', {}, { version: 'skin-2' }), scan('b', '2026-11-08T09:00:00Z')];
    expect(latestChanges(version)).toMatchObject({ status: 'notComparable', otherAnalysis: true });
    expect(latestChanges([scan('a', '2026-11-01T09:00:00Z')])).toMatchObject({ status: 'first' });
    expect(latestChanges([])).toBeUndefined();
  });
});

describe('a scan card’s notable changes', () => {
  it('compares each scan with its own last comparable scan, largest changes first, at most three', () => {
    const scans = [
      scan('a', '2026-11-01T09:00:00Z'),
      scan('b', '2026-11-08T09:00:00Z', { redness: 40, evenness: 40, shine: 40, texture: 60 }),
      scan('c', '2026-11-15T09:00:00Z', { redness: 40, evenness: 40, shine: 40, texture: 60 }),
    ];
    const middle = notableChanges(scans, scans[1]!)!;
    expect(middle.status).toBe('compared');
    if (middle.status !== 'compared') return;
    expect(middle.previous.id).toBe('a');
    expect(middle.real).toHaveLength(3);
    const moved = (one: (typeof middle.real)[number]) => Math.abs(one.change.delta) / one.change.floor;
    expect(moved(middle.real[0]!)).toBeGreaterThanOrEqual(moved(middle.real[1]!));
    expect(middle.real.every((one) => one.kind === 'better' || one.kind === 'worse')).toBe(true);
    // The newest repeats the middle one's scores: no real change.
    expect(notableChanges(scans, scans[2]!)).toMatchObject({ status: 'compared', real: [] });
    expect(notableChanges(scans, scans[0]!)).toMatchObject({ status: 'first' });
  });
});

describe('small multiples', () => {
  const scans = [
    scan('a', '2026-11-01T09:00:00Z', { redness: 20 }, { zones: { forehead: 25, leftCheek: 30 } }),
    scan('b', '2026-11-08T09:00:00Z', { redness: 22 }, { zones: { forehead: 26, leftCheek: 45 } }),
  ];

  it('by zone: one trend of the metric per place that reports it, the whole face first', () => {
    const multiples = smallMultiples(scans, { by: 'zone', metric: 'redness' });
    expect(multiples.map((one) => one.series.place)).toEqual(['overall', 'forehead', 'leftCheek']);
    expect(multiples.every((one) => one.series.metric === 'redness')).toBe(true);
    expect(multiples[2]!.series.points.map((point) => point.value)).toEqual([30, 45]);
    expect(multiples[2]!.sinceFirst?.kind).toBe('worse');
    expect(placesOf('shine')).not.toContain('eyeArea');
  });

  it('by metric: one trend per metric measured in the zone', () => {
    const multiples = smallMultiples(scans, { by: 'metric', place: 'overall' });
    expect(multiples.map((one) => one.series.metric)).toEqual([
      'redness',
      'evenness',
      'shine',
      'texture',
      'darkCircles',
    ]);
    expect(multiples.find((one) => one.series.metric === 'evenness')?.sinceFirst?.kind).toBe('noRealChange');
    // A zone measured for redness only has one trend.
    expect(smallMultiples(scans, { by: 'metric', place: 'forehead' }).map((one) => one.series.metric)).toEqual([
      'redness',
    ]);
  });

  it('a scan in another light is in the trend, marked not comparable', () => {
    const lit = [...scans, scan('c', '2026-11-15T21:00:00Z', { redness: 40 }, { conditions: LAMP })];
    const [face] = smallMultiples(lit, { by: 'zone', metric: 'redness' });
    expect(face!.series.points.map((point) => point.change?.verdict)).toEqual([undefined, 'stable', 'unsure']);
    expect(face!.sinceFirst?.kind).toBe('notComparable');
  });
});
