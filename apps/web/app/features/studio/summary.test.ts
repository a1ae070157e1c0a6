import { describe, expect, it } from 'vitest';
import type { Analysis } from '@skanova/skin/contract';
import { levelOf, summarise } from './summary';

const analysis: Analysis = {
  version: 'test',
  width: 100,
  height: 100,
  pxPerMm: 3,
  zones: [
    { zone: 'forehead', outline: [], pixels: 10, metrics: { redness: 20, shine: 71.6, texture: 40 } },
    { zone: 'nose', outline: [], pixels: 10, metrics: { redness: 35, shine: 64 } },
    { zone: 'eyeArea', outline: [], pixels: 10, metrics: { darkCircles: 55 } },
  ],
  overall: { redness: 25.4, evenness: 12, shine: 60, texture: 41, darkCircles: 55 },
};

describe('the result summary', () => {
  it('names the most and least marked indicators and the highest zone score, rounded', () => {
    expect(summarise(analysis)).toEqual({
      top: { metric: 'shine', value: 60 },
      bottom: { metric: 'evenness', value: 12 },
      zone: { zone: 'forehead', metric: 'shine', value: 72 },
    });
  });

  it('has no zone score when no zone was measured', () => {
    expect(summarise({ ...analysis, zones: [] }).zone).toBeNull();
  });

  it('puts words on thirds of the scale', () => {
    expect([0, 33, 34, 66, 67, 100].map(levelOf)).toEqual(['low', 'low', 'moderate', 'moderate', 'high', 'high']);
  });
});
