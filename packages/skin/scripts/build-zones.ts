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
/** The polygon grown by `factor` about its centroid. */
function grow(polygon: readonly Uv[], factor: number): Uv[] {
  const cu = polygon.reduce((s, p) => s + p[0], 0) / polygon.length;
  const cv = polygon.reduce((s, p) => s + p[1], 0) / polygon.length;
  return polygon.map(([u, v]) => [cu + (u - cu) * factor, cv + (v - cv) * factor] as const);
}

// Landmark rings of the canonical mesh (MediaPipe's FACEMESH contours).
const LIPS_OUTER = [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291, 375, 321, 405, 314, 17, 84, 181, 91, 146];
const AROUND_LIPS = [164, 393, 391, 322, 410, 287, 273, 335, 406, 313, 18, 83, 182, 106, 43, 57, 186, 92, 165, 167];
const RIGHT_EYE_LOWER1 = [130, 25, 110, 24, 23, 22, 26, 112, 243];
const RIGHT_EYE_LOWER3 = [143, 111, 117, 118, 119, 120, 121, 128, 245];
const LEFT_EYE_LOWER1 = [359, 255, 339, 254, 253, 252, 256, 341, 463];
const LEFT_EYE_LOWER3 = [372, 340, 346, 347, 348, 349, 350, 357, 465];

// Regions on the canonical face's UV layout (u: 0 = the subject's right side, v: 0 = top).
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
  [0.37, 0.79],
  [0.63, 0.79],
  [0.68, 0.86],
  [0.6, 0.93],
  [0.5, 0.945],
  [0.4, 0.93],
  [0.32, 0.86],
];

const ZONES: Record<Exclude<ZoneId, 'forehead'>, (centre: Uv) => boolean> = {
  leftCheek: (c) => inside(c, mirror(RIGHT_CHEEK)),
  rightCheek: (c) => inside(c, RIGHT_CHEEK),
  eyeArea: (c) =>
    inside(c, ofIndices([...RIGHT_EYE_LOWER1, ...RIGHT_EYE_LOWER3.toReversed()])) ||
    inside(c, ofIndices([...LEFT_EYE_LOWER1, ...LEFT_EYE_LOWER3.toReversed()])),
  nose: (c) => inside(c, NOSE),
  chin: (c) => inside(c, CHIN),
  // A ring around the lips: from their outline to a little beyond the mesh's first ring around them.
  lipContour: (c) => inside(c, grow(ofIndices(AROUND_LIPS), 1.3)) && !inside(c, ofIndices(LIPS_OUTER)),
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

/** A polygon vertex: a landmark, or the point `t` of the way from landmark a to landmark b. */
type Vertex = number | [number, number, number];

// The forehead is a band across the mesh's large forehead triangles, so it is drawn as a polygon
// of points between the mesh's rows: from 70 % of the way from the row above the brows
// (104 … 333) down towards the brows, up to 40 % of the way towards the mesh's upper edge, whose
// landmarks are the least steady.
const FOREHEAD_COLUMNS = [
  [103, 104, 105],
  [67, 69, 66],
  [109, 108, 107],
  [10, 151, 9],
  [338, 337, 336],
  [297, 299, 296],
  [332, 333, 334],
] as const;
const FOREHEAD: Vertex[] = [
  68,
  ...FOREHEAD_COLUMNS.map(([top, middle]): Vertex => [middle, top, 0.4]),
  298,
  ...FOREHEAD_COLUMNS.toReversed().map(([, middle, brow]): Vertex => [middle, brow, 0.7]),
];

const taken = new Set<number>();
const zones: Record<string, { triangles?: number[][]; polygons?: Vertex[][]; outline: Vertex[][] }> = {
  forehead: { polygons: [FOREHEAD], outline: [FOREHEAD] },
};
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
// Indented, with each triangle, polygon and outline loop on one line (Prettier leaves data/ alone).
const NUMBER = String.raw`-?[\d.]+`;
const FLAT = String.raw`\[[^\[\]{}]*\]`;
const json = JSON.stringify(
  {
    about:
      'Skin zones of the face mesh: mesh triangles and/or polygons (a vertex is a landmark index, or [a, b, t]: the point t of the way from landmark a to b), and outlines for drawing. Landmarks are MediaPipe canonical face-mesh indices (468 points). Built by scripts/build-zones.ts.',
    ...zones,
  },
  null,
  2,
)
  .replace(
    new RegExp(String.raw`\[\s*(${NUMBER}(?:,\s*${NUMBER})*)\s*\]`, 'g'),
    (_, inner: string) => `[${inner.replace(/\s+/g, '')}]`,
  )
  .replace(
    new RegExp(String.raw`\[\s*((?:${NUMBER}|${FLAT})(?:,\s*(?:${NUMBER}|${FLAT}))*)\s*\](?=,?\n\s*[\]\n])`, 'g'),
    (_, inner: string) => `[${inner.replace(/\s+/g, '')}]`,
  );
writeFileSync(out, json + '\n');
