import { describe, expect, it } from 'vitest';
import { METRIC_IDS, type MetricId } from '@skanova/skin/contract';
import { compareMetric, noiseFloor } from '@skanova/skin/trend';
import {
  aimOf,
  higherMeansKey,
  lastComparableScan,
  movementKey,
  readChange,
  readLevel,
  readScans,
  realChanges,
} from './reading.ts';
import { MARKED_FROM } from './scan-results.ts';
import { WINDOW_CONDITIONS, analysisWith, scanOf, translator } from './test-support.ts';

// The one reading of a score that every screen shows: its direction and its words, whether it stands
// out, and what a change between two scans says (no real change within the floor, better or worse
// beyond it, not comparable between photos not taken alike).

const en = translator('en');
const fr = translator('fr');
const NOSE_REDNESS = noiseFloor('redness', 'nose')!;

describe('a metric’s direction', () => {
  it('is "lower is the aim" for every metric but evenness, where more even is the aim', () => {
    expect(METRIC_IDS.map((metric) => [metric, aimOf(metric)])).toEqual([
      ['redness', 'lower'],
      ['evenness', 'higher'],
      ['shine', 'lower'],
      ['texture', 'lower'],
      ['darkCircles', 'lower'],
    ]);
  });

  it('is said in words in both languages: what a higher score shows, and each way it can move', () => {
    expect(en(higherMeansKey('redness'))).toBe('Higher means more redness.');
    expect(en(higherMeansKey('evenness'))).toBe('Higher means more even: for this score, higher is the aim.');
    expect(fr(higherMeansKey('evenness'))).toMatch(/^Plus le score est élevé, plus le teint est uniforme/);
    expect(en(movementKey('redness', 'up'))).toBe('more redness');
    expect(en(movementKey('evenness', 'up'))).toBe('more even');
    expect(en(movementKey('evenness', 'down'))).toBe('less even');
    expect(fr(movementKey('texture', 'down'))).toBe('peau plus lisse');
    for (const metric of METRIC_IDS)
      for (const t of [en, fr]) {
        expect(t(higherMeansKey(metric))).not.toBe('');
        expect(t(movementKey(metric, 'up'))).not.toBe(t(movementKey(metric, 'down')));
      }
  });
});

describe('a level', () => {
  it('stands out past the one threshold, in the metric’s direction: evenness 99 does not, redness 34 does', () => {
    const evenness = readLevel('evenness', 'nose', 99);
    expect(evenness).toMatchObject({ standsOut: false, aim: 'higher', key: 'reading.level.usual' });
    expect(readLevel('evenness', 'nose', MARKED_FROM.evenness)).toMatchObject({
      standsOut: true,
      key: 'reading.level.standsOut',
    });
    expect(readLevel('redness', 'leftCheek', 34).standsOut).toBe(true);
    expect(readLevel('redness', 'leftCheek', MARKED_FROM.redness - 1).standsOut).toBe(false);
    expect(readLevel('shine', 'overall', 100).standsOut).toBe(true);
    expect(readLevel('shine', 'overall', 0).standsOut).toBe(false);
  });

  it('says from where it stands out in the metric’s own direction', () => {
    const redness = readLevel('redness', 'nose', 10);
    expect(en(redness.thresholdKey, { threshold: redness.threshold })).toBe(
      `it stands out from ${MARKED_FROM.redness}`,
    );
    const evenness = readLevel('evenness', 'chin', 60);
    expect(en(evenness.thresholdKey, { threshold: evenness.threshold })).toBe(
      `it stands out at ${MARKED_FROM.evenness} or below`,
    );
    expect(fr(evenness.thresholdKey, { threshold: evenness.threshold })).toBe(
      `ressort à ${MARKED_FROM.evenness} ou moins`,
    );
  });
});

describe('a change', () => {
  it('within the noise floor is "no real change", whichever way it went, and is never coloured', () => {
    for (const delta of [0, NOSE_REDNESS * 0.99, -NOSE_REDNESS * 0.99]) {
      const reading = readChange(compareMetric('redness', 'nose', 20, 20 + delta));
      expect(reading).toMatchObject({ kind: 'noRealChange', movementKey: null, tone: null });
      expect(en(reading.key)).toBe('no real change');
      expect(fr(reading.key)).toBe('pas de vrai changement');
    }
  });

  it('beyond the floor is better or worse by the metric’s direction, with the movement in words', () => {
    const lessRed = readChange(compareMetric('redness', 'nose', 30, 30 - NOSE_REDNESS - 1));
    expect(lessRed).toMatchObject({ kind: 'better', tone: 'better' });
    expect(en(lessRed.movementKey!)).toBe('less redness');
    const floor = noiseFloor('evenness', 'nose')!;
    const lessEven = readChange(compareMetric('evenness', 'nose', 95, 95 - floor - 1));
    expect(lessEven).toMatchObject({ kind: 'worse', tone: 'worse' });
    expect(en(lessEven.movementKey!)).toBe('less even');
    const moreEven = readChange(compareMetric('evenness', 'nose', 80, 80 + floor + 1));
    expect(moreEven.kind).toBe('better');
    expect(en(moreEven.key)).toBe('better');
  });

  it('beyond the floor between photos not taken alike is "not comparable", with what differed, uncoloured', () => {
    const reading = readChange(compareMetric('redness', 'nose', 30, 30 + NOSE_REDNESS + 5, ['light']));
    expect(reading).toMatchObject({ kind: 'notComparable', tone: null, differences: ['light'] });
    expect(en(reading.movementKey!)).toBe('more redness');
    expect(en(reading.key)).toBe('not comparable');
    // Within the floor it is no real change, whatever the light.
    expect(readChange(compareMetric('redness', 'nose', 30, 30, ['light'])).kind).toBe('noRealChange');
  });

  it('of every metric in every place reads the same way on every screen: one function of the change', () => {
    for (const metric of METRIC_IDS as readonly MetricId[]) {
      const up = readChange(compareMetric(metric, 'overall', 40, 60));
      expect(up.kind).toBe(aimOf(metric) === 'higher' ? 'better' : 'worse');
    }
  });
});

describe('two scans', () => {
  const LAMP = { ...WINDOW_CONDITIONS, light: 40 };
  const taken = (conditions = WINDOW_CONDITIONS) => ({ ...analysisWith({}, 'skin-3'), conditions });

  it('of another analysis version compare nothing', () => {
    const reading = readScans(analysisWith({}, 'skin-2'), analysisWith({}, 'skin-3'));
    expect(reading).toEqual({ sameAnalysis: false, differences: [], changes: [] });
  });

  it('taken alike read every change; in another light, what moved beyond its floor is not comparable', () => {
    const after = {
      ...taken(),
      zones: taken().zones.map((zone) =>
        zone.zone === 'nose' ? { ...zone, metrics: { ...zone.metrics, redness: 40 } } : zone,
      ),
    };
    const alike = readScans(taken(), after);
    expect(alike.differences).toEqual([]);
    expect(
      realChanges(alike.changes).map((reading) => [reading.change.place, reading.change.metric, reading.kind]),
    ).toEqual([['nose', 'redness', 'worse']]);
    const lamp = readScans(taken(LAMP), after);
    expect(lamp.differences).toEqual(['light']);
    expect(realChanges(lamp.changes).map((reading) => reading.kind)).toEqual(['notComparable']);
  });

  it('the last comparable scan is the newest earlier one of the same analysis, taken alike', () => {
    const scan = (id: string, day: number, version = 'skin-3', conditions = WINDOW_CONDITIONS) => ({
      id,
      takenAt: `2026-12-${String(day).padStart(2, '0')}T09:00:00.000Z`,
      analysis: { ...analysisWith({}, version), conditions },
    });
    const current = scan('now', 20);
    const history = [
      scan('old', 1),
      scan('lamp', 13, 'skin-3', LAMP),
      scan('other-version', 15, 'skin-2'),
      scan('later', 27),
      current,
    ];
    expect(lastComparableScan(history, current)?.id).toBe('old');
    expect(lastComparableScan([scan('lamp', 13, 'skin-3', LAMP)], current)).toBeUndefined();
    expect(lastComparableScan([], scanOf('x', '2026-12-01T09:00:00.000Z'))).toBeUndefined();
  });
});
