import { describe, expect, it } from 'vitest';
import type { Analysis } from './contract.ts';
import floors from './data/noise-floors.json' with { type: 'json' };
import { MIN_NOISE_FLOOR, compareAnalyses, compareMetric, noiseFloor } from './trend.ts';

// A change is judged against the metric's measured noise floor: just below it is stable, at or above
// it is a change, and its meaning depends on whether more of the metric is the aim.

describe('noiseFloor', () => {
  it('is the measured floor, never under one point, and absent where a zone does not report the metric', () => {
    expect(noiseFloor('redness', 'lipContour')).toBe(floors.zones.lipContour.redness);
    expect(noiseFloor('darkCircles', 'overall')).toBe(floors.overall.darkCircles);
    for (const zone of Object.keys(floors.zones) as (keyof typeof floors.zones)[])
      for (const [metric, measured] of Object.entries(floors.zones[zone]))
        expect(noiseFloor(metric as 'shine', zone)).toBe(Math.max(MIN_NOISE_FLOOR, measured));
    expect(noiseFloor('darkCircles', 'forehead')).toBeUndefined();
  });
});

describe('compareMetric', () => {
  const floor = floors.zones.lipContour.redness; // 4.8

  it('calls a change just below the floor stable, never better or worse', () => {
    const change = compareMetric('redness', 'lipContour', 30, 30 + floor - 0.1);
    expect(change).toMatchObject({ direction: 'stable', verdict: 'stable', floor });
    expect(compareMetric('redness', 'lipContour', 30, 30 - floor + 0.1).verdict).toBe('stable');
  });

  it('calls a change at or above the floor a change, with its meaning', () => {
    expect(compareMetric('redness', 'lipContour', 30, 30 + floor)).toMatchObject({ direction: 'up', verdict: 'worse' });
    expect(compareMetric('redness', 'lipContour', 30, 30 - floor - 0.1)).toMatchObject({
      direction: 'down',
      verdict: 'better',
    });
  });

  it('reads evenness the other way: more even is the aim', () => {
    expect(compareMetric('evenness', 'overall', 60, 70)).toMatchObject({ direction: 'up', verdict: 'better' });
    expect(compareMetric('evenness', 'overall', 70, 60)).toMatchObject({ direction: 'down', verdict: 'worse' });
  });
});

describe('compareAnalyses', () => {
  const analysis = (version: string, redness: number, cheekShine: number): Analysis => ({
    version,
    width: 100,
    height: 100,
    pxPerMm: 3,
    zones: [
      { zone: 'leftCheek', outline: [], pixels: 900, metrics: { redness, shine: cheekShine } },
      { zone: 'eyeArea', outline: [], pixels: 300, metrics: { texture: 20, darkCircles: 30 } },
    ],
    overall: { redness, evenness: 80, shine: cheekShine, texture: 20, darkCircles: 30 },
  });

  it('compares face-wide values first, then each zone both scans measured, in the contract order', () => {
    const changes = compareAnalyses(analysis('skin-1', 10, 20), analysis('skin-1', 20, 21));
    expect(changes.map((change) => `${change.place}.${change.metric}`)).toEqual([
      'overall.redness',
      'overall.evenness',
      'overall.shine',
      'overall.texture',
      'overall.darkCircles',
      'leftCheek.redness',
      'leftCheek.shine',
      'eyeArea.texture',
      'eyeArea.darkCircles',
    ]);
    expect(changes.find((change) => change.place === 'leftCheek' && change.metric === 'redness')?.verdict).toBe(
      'worse',
    );
    expect(changes.find((change) => change.place === 'leftCheek' && change.metric === 'shine')?.verdict).toBe('stable');
  });

  it('does not compare scans analysed with different definitions', () => {
    expect(compareAnalyses(analysis('skin-1', 10, 20), analysis('skin-2', 40, 20))).toEqual([]);
  });

  it('calls a change beyond the floor "unsure" when the two photos were not taken alike', () => {
    const conditions = {
      light: 60,
      gradient: { horizontal: 0, vertical: 0.2 },
      colourTemperature: 5500,
      faceSize: 0.3,
      pxPerMm: 3,
      pose: { yaw: 0, pitch: 5, roll: 0 },
    };
    const before = { ...analysis('skin-2', 10, 20), conditions };
    const alike = { ...analysis('skin-2', 30, 20), conditions: { ...conditions, light: 62 } };
    const topLit = {
      ...analysis('skin-2', 30, 20),
      conditions: { ...conditions, gradient: { horizontal: 0, vertical: 0.8 } },
    };
    const redness = (changes: ReturnType<typeof compareAnalyses>) =>
      changes.find((change) => change.place === 'leftCheek' && change.metric === 'redness')!;
    expect(redness(compareAnalyses(before, alike))).toMatchObject({ verdict: 'worse', differences: [] });
    expect(redness(compareAnalyses(before, topLit))).toMatchObject({
      direction: 'up',
      verdict: 'unsure',
      differences: ['lightDirection'],
    });
    // A stable metric stays stable whatever the capture.
    expect(compareAnalyses(before, topLit).find((c) => c.place === 'leftCheek' && c.metric === 'shine')?.verdict).toBe(
      'stable',
    );
  });
});
