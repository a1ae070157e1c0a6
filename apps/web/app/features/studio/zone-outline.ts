import type { Point, ZoneResult } from '@skanova/skin/contract';

// The zones' outlines as smooth SVG paths (docs/product/web-app.md#result). A zone's outline is the
// edge of a set of face-mesh triangles: it zigzags from one triangle to the next, and a curve through
// every landmark keeps the saw-tooth. Each closed loop is therefore resampled evenly along its
// length, smoothed with a Gaussian along it (a low-pass on the edge: the zigzag goes, the zone's shape
// stays), resampled to fewer points, and drawn as a centripetal Catmull-Rom spline (cubic Bézier
// segments through every point, no loops or overshoot where points crowd). A zone with a hole (the
// lip contour around the lips: draw it with fill-rule evenodd) keeps its inner loop as a hole.

/** Points a loop is resampled to before smoothing. */
const DENSE = 96;
/** The Gaussian's width, in those points: about a fortieth of the loop's length. */
const SIGMA = 2.5;
/** Points the smoothed loop is drawn through. */
const DRAWN = 32;
const ALPHA = 0.5;
/** Below this distance two points count as one (no direction to follow). */
const EPSILON = 1e-6;

const format = (value: number) => (Math.round(value * 10) / 10).toString();

/** `count` points evenly spaced along the closed loop's length. */
export function resampleLoop(loop: readonly Point[], count: number): Point[] {
  const n = loop.length;
  const lengths = loop.map((point, i) => {
    const next = loop[(i + 1) % n]!;
    return Math.hypot(next[0] - point[0], next[1] - point[1]);
  });
  const total = lengths.reduce((sum, length) => sum + length, 0);
  if (total < EPSILON) return [];
  const out: Point[] = [];
  let segment = 0;
  let walked = 0;
  for (let k = 0; k < count; k++) {
    const target = (k * total) / count;
    while (segment < n - 1 && walked + lengths[segment]! < target) walked += lengths[segment++]!;
    const from = loop[segment]!;
    const to = loop[(segment + 1) % n]!;
    const t = lengths[segment]! > 0 ? (target - walked) / lengths[segment]! : 0;
    out.push([from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t]);
  }
  return out;
}

/** Each point of a closed loop replaced by the Gaussian-weighted mean of its neighbours along it. */
function smoothAlong(loop: readonly Point[], sigma: number): Point[] {
  const n = loop.length;
  const reach = Math.min(Math.ceil(3 * sigma), Math.floor((n - 1) / 2));
  const weights = Array.from({ length: 2 * reach + 1 }, (_, k) => Math.exp(-((k - reach) ** 2) / (2 * sigma * sigma)));
  const sum = weights.reduce((total, weight) => total + weight, 0);
  return loop.map((_, i) => {
    let x = 0;
    let y = 0;
    weights.forEach((weight, k) => {
      const [px, py] = loop[(((i + k - reach) % n) + n) % n]!;
      x += weight * px;
      y += weight * py;
    });
    return [x / sum, y / sum];
  });
}

/** The two Bézier control points of the segment p1 → p2, with p0 before it and p3 after it. */
function controls(p0: Point, p1: Point, p2: Point, p3: Point): [Point, Point] {
  const d1 = Math.hypot(p1[0] - p0[0], p1[1] - p0[1]) ** ALPHA;
  const d2 = Math.hypot(p2[0] - p1[0], p2[1] - p1[1]) ** ALPHA;
  const d3 = Math.hypot(p3[0] - p2[0], p3[1] - p2[1]) ** ALPHA;
  if (d2 < EPSILON) return [p1, p2];
  const first = (i: 0 | 1) =>
    d1 < EPSILON
      ? p1[i] + (p2[i] - p1[i]) / 3
      : (d1 * d1 * p2[i] - d2 * d2 * p0[i] + (2 * d1 * d1 + 3 * d1 * d2 + d2 * d2) * p1[i]) / (3 * d1 * (d1 + d2));
  const second = (i: 0 | 1) =>
    d3 < EPSILON
      ? p2[i] - (p2[i] - p1[i]) / 3
      : (d3 * d3 * p1[i] - d2 * d2 * p3[i] + (2 * d3 * d3 + 3 * d3 * d2 + d2 * d2) * p2[i]) / (3 * d3 * (d3 + d2));
  return [
    [first(0), first(1)],
    [second(0), second(1)],
  ];
}

/** A closed curve through every point of `loop`, as cubic Bézier segments: "M … C … Z". */
export function splineThrough(loop: readonly Point[]): string {
  const n = loop.length;
  if (n < 3) return '';
  const at = (i: number) => loop[(i + n) % n]!;
  let path = `M${format(loop[0]![0])} ${format(loop[0]![1])}`;
  for (let i = 0; i < n; i++) {
    const [c1, c2] = controls(at(i - 1), at(i), at(i + 1), at(i + 2));
    const end = at(i + 1);
    path += `C${format(c1[0])} ${format(c1[1])} ${format(c2[0])} ${format(c2[1])} ${format(end[0])} ${format(end[1])}`;
  }
  return `${path}Z`;
}

/** One closed loop of landmark points as a smooth path. Fewer than three points draw nothing. */
export function smoothLoop(loop: readonly Point[]): string {
  if (loop.length < 3) return '';
  const dense = resampleLoop(loop, DENSE);
  if (dense.length === 0) return '';
  return splineThrough(resampleLoop(smoothAlong(dense, SIGMA), DRAWN));
}

/** A zone's outline as one path, every loop in it (draw it with fill-rule evenodd: an inner loop is a hole). */
export function zonePath(zone: Pick<ZoneResult, 'outline'>): string {
  return zone.outline.map(smoothLoop).join('');
}
