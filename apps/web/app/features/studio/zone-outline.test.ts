import { describe, expect, it } from 'vitest';
import type { Point } from '@skanova/skin/contract';
import { resampleLoop, smoothLoop, splineThrough, zonePath } from './zone-outline';

/** The path's start point and each Bézier segment's end point. */
function ends(path: string): Point[] {
  const numbers = (text: string) => text.trim().split(/\s+/).map(Number);
  const start = numbers(/^M([^C]+)/.exec(path)![1]!);
  const segments = [...path.matchAll(/C([^CZ]+)/g)].map((match) => numbers(match[1]!));
  return [[start[0]!, start[1]!], ...segments.map((segment): Point => [segment[4]!, segment[5]!])];
}

const circle = (count: number, radius: number, wobble = 0): Point[] =>
  Array.from({ length: count }, (_, i) => {
    const angle = (2 * Math.PI * i) / count;
    const r = radius + (i % 2 === 0 ? wobble : -wobble);
    return [100 + r * Math.cos(angle), 100 + r * Math.sin(angle)];
  });

const radii = (points: readonly Point[]) => points.map(([x, y]) => Math.hypot(x - 100, y - 100));

describe('a zone outline', () => {
  it('is a closed spline of Bézier segments through every point it is given, in order', () => {
    const square: Point[] = [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
    ];
    const path = splineThrough(square);
    expect(path).toMatch(/^M0 0C.*Z$/);
    expect(path.match(/C/g)).toHaveLength(4);
    expect(ends(path)).toEqual([...square, square[0]]);
  });

  it('loses the saw-tooth of the mesh’s triangles and keeps the zone’s shape', () => {
    // A round zone whose edge zigzags by ±6 % from one landmark to the next.
    const path = smoothLoop(circle(30, 50, 3));
    const drawn = ends(path);
    const r = radii(drawn);
    // The zigzag is gone: the drawn points are within 1 % of one radius…
    expect(Math.max(...r) - Math.min(...r)).toBeLessThan(1);
    // …which is the zone's own, give or take the little a smoothing takes off a curve.
    expect(Math.min(...r)).toBeGreaterThan(48);
    expect(Math.max(...r)).toBeLessThan(50.5);
  });

  it('keeps every loop of a zone (the lip contour: its outer edge and the lips as a hole), and skips degenerate ones', () => {
    const path = zonePath({ outline: [circle(30, 50), circle(20, 20), [[1, 1]]] });
    expect(path.match(/M/g)).toHaveLength(2);
    expect(path.match(/Z/g)).toHaveLength(2);
    // The hole stays inside the outer edge.
    const [outer, inner] = path
      .split('Z')
      .slice(0, 2)
      .map((loop) => radii(ends(`${loop}Z`)));
    expect(Math.max(...inner!)).toBeLessThan(Math.min(...outer!));
    expect(
      smoothLoop([
        [0, 0],
        [1, 1],
      ]),
    ).toBe('');
    expect(
      smoothLoop([
        [5, 5],
        [5, 5],
        [5, 5],
      ]),
    ).toBe('');
    // Repeated points do not make NaN.
    expect(
      smoothLoop([
        [0, 0],
        [0, 0],
        [5, 0],
        [5, 5],
      ]),
    ).not.toMatch(/NaN/);
  });

  it('resamples a loop evenly along its length', () => {
    const square: Point[] = [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
    ];
    expect(resampleLoop(square, 8)).toEqual([
      [0, 0],
      [5, 0],
      [10, 0],
      [10, 5],
      [10, 10],
      [5, 10],
      [0, 10],
      [0, 5],
    ]);
  });
});
