// Builds src/data/zones.json: each zone as a set of triangles of MediaPipe's 468-point canonical face
// mesh, chosen by where their centre lies on the canonical face (its UV layout), and the zone's
// outline as closed loops of landmark indices (the triangles' boundary). The mesh topology (UV468,
// TRI468) is read from @vladmandic/human's source (MIT) in node_modules; only landmark indices are kept.
// Run: node --import tsx packages/skin/scripts/build-zones.ts

import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ZoneId } from '../src/contract.ts';

type Uv = readonly [number, number];

const require = createRequire(import.meta.url);
const humanRoot = path.dirname(path.dirname(require.resolve('@vladmandic/human')));
const source = readFileSync(path.join(humanRoot, 'src', 'face', 'facemeshcoords.ts'), 'utf8');

function section(start: string, end: string): string {
  return source.slice(source.indexOf(start), source.indexOf(end));
}
const uv: Uv[] = [...section('export const UV468', 'export const TRI468').matchAll(/\[([\d.e-]+), ([\d.e-]+)\]/g)].map(
  (m) => [Number(m[1]), Number(m[2])] as const,
);
const triText = section('export const TRI468', 'export const TRI68');
const triIndices = [...triText.slice(triText.indexOf('[')).matchAll(/\d+/g)].map((m) => Number(m[0]));
if (uv.length !== 468 || triIndices.length !== 880 * 3) throw new Error('unexpected mesh topology');
const triangles: [number, number, number][] = [];
for (let i = 0; i < triIndices.length; i += 3) triangles.push([triIndices[i]!, triIndices[i + 1]!, triIndices[i + 2]!]);

function inside(point: Uv, polygon: readonly Uv[]): boolean {
  let result = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!;
    const [xj, yj] = polygon[j]!;
    if (yi > point[1] !== yj > point[1] && point[0] < ((xj - xi) * (point[1] - yi)) / (yj - yi) + xi) result = !result;
  }
  return result;
}
const ofIndices = (indices: readonly number[]): Uv[] => indices.map((i) => uv[i]!);
const mirror = (polygon: readonly Uv[]): Uv[] => polygon.map(([u, v]) => [1 - u, v] as const);

// Landmark rings of the canonical mesh (MediaPipe's FACEMESH contours).
const LIPS_OUTER = [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291, 375, 321, 405, 314, 17, 84, 181, 91, 146];
const AROUND_LIPS = [164, 393, 391, 322, 410, 287, 273, 335, 406, 313, 18, 83, 182, 106, 43, 57, 186, 92, 165, 167];
const RIGHT_EYE_LOWER1 = [130, 25, 110, 24, 23, 22, 26, 112, 243];
const RIGHT_EYE_LOWER3 = [143, 111, 117, 118, 119, 120, 121, 128, 245];
const LEFT_EYE_LOWER1 = [359, 255, 339, 254, 253, 252, 256, 341, 463];
const LEFT_EYE_LOWER3 = [372, 340, 346, 347, 348, 349, 350, 357, 465];

// Regions on the canonical face's UV layout (u: 0 = the subject's right side, v: 0 = top).
const FOREHEAD: Uv[] = [
  [0.25, 0.225],
  [0.3, 0.16],
  [0.4, 0.125],
  [0.5, 0.11],
  [0.6, 0.125],
  [0.7, 0.16],
  [0.75, 0.225],
  [0.5, 0.232],
];
// The subject's right cheek: under the eye area, beside the nose, above the mouth corner, inside the jaw.
const RIGHT_CHEEK: Uv[] = [
  [0.17, 0.43],
  [0.22, 0.465],
  [0.25, 0.48],
  [0.29, 0.49],
  [0.33, 0.48],
  [0.37, 0.47],
  [0.405, 0.455],
  [0.41, 0.5],
  [0.4, 0.57],
  [0.37, 0.63],
  [0.34, 0.68],
  [0.3, 0.72],
  [0.2, 0.72],
  [0.12, 0.66],
  [0.1, 0.55],
  [0.12, 0.46],
];
const NOSE: Uv[] = [
  [0.46, 0.36],
  [0.54, 0.36],
  [0.555, 0.45],
  [0.58, 0.53],
  [0.565, 0.563],
  [0.435, 0.563],
  [0.42, 0.53],
  [0.445, 0.45],
];
const CHIN: Uv[] = [
  [0.4, 0.795],
  [0.6, 0.795],
  [0.635, 0.86],
  [0.58, 0.92],
  [0.5, 0.935],
  [0.42, 0.92],
  [0.365, 0.86],
];

const ZONES: Record<ZoneId, (centre: Uv) => boolean> = {
  forehead: (c) => inside(c, FOREHEAD),
  leftCheek: (c) => inside(c, mirror(RIGHT_CHEEK)),
  rightCheek: (c) => inside(c, RIGHT_CHEEK),
  eyeArea: (c) =>
    inside(c, ofIndices([...RIGHT_EYE_LOWER1, ...RIGHT_EYE_LOWER3.toReversed()])) ||
    inside(c, ofIndices([...LEFT_EYE_LOWER1, ...LEFT_EYE_LOWER3.toReversed()])),
  nose: (c) => inside(c, NOSE),
  chin: (c) => inside(c, CHIN),
  lipContour: (c) => inside(c, ofIndices(AROUND_LIPS)) && !inside(c, ofIndices(LIPS_OUTER)),
};

/** The triangles' boundary edges chained into closed loops of landmark indices. */
function outlineLoops(chosen: readonly (readonly [number, number, number])[]): number[][] {
  const count = new Map<string, number>();
  const directed: [number, number][] = [];
  for (const [a, b, c] of chosen) {
    for (const [p, q] of [
      [a, b],
      [b, c],
      [c, a],
    ] as const) {
      const key = p < q ? `${p},${q}` : `${q},${p}`;
      count.set(key, (count.get(key) ?? 0) + 1);
      directed.push([p, q]);
    }
  }
  const next = new Map<number, number[]>();
  for (const [p, q] of directed) {
    const key = p < q ? `${p},${q}` : `${q},${p}`;
    if (count.get(key) !== 1) continue;
    next.set(p, [...(next.get(p) ?? []), q]);
  }
  const loops: number[][] = [];
  for (;;) {
    const start = [...next.entries()].find(([, to]) => to.length > 0)?.[0];
    if (start === undefined) break;
    const loop = [start];
    let at = start;
    for (;;) {
      const to = next.get(at)!;
      const step = to.shift()!;
      if (step === start) break;
      loop.push(step);
      at = step;
    }
    loops.push(loop);
  }
  return loops;
}

const taken = new Set<number>();
const zones: Record<string, { triangles: number[][]; outline: number[][] }> = {};
for (const [zone, test] of Object.entries(ZONES)) {
  const chosen: [number, number, number][] = [];
  triangles.forEach((triangle, index) => {
    if (taken.has(index)) return;
    const centre: Uv = [
      (uv[triangle[0]]![0] + uv[triangle[1]]![0] + uv[triangle[2]]![0]) / 3,
      (uv[triangle[0]]![1] + uv[triangle[1]]![1] + uv[triangle[2]]![1]) / 3,
    ];
    if (!test(centre)) return;
    taken.add(index);
    chosen.push(triangle);
  });
  zones[zone] = { triangles: chosen, outline: outlineLoops(chosen) };
  console.log(
    zone,
    chosen.length,
    'triangles',
    zones[zone].outline.map((l) => l.length),
  );
}

const out = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'data', 'zones.json');
const json = JSON.stringify(
  {
    about:
      'Skin zones as triangles and outlines of MediaPipe canonical face-mesh landmark indices (468 points). Built by scripts/build-zones.ts.',
    ...zones,
  },
  (key, value: unknown) =>
    Array.isArray(value) && value.every((v) => typeof v === 'number') ? JSON.stringify(value) : value,
  2,
).replace(/"(\[[\d,]*\])"/g, '$1');
writeFileSync(out, json + '\n');
