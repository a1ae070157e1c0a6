// The skin zones on a detected face: landmark geometry (src/data/zones.json, built from MediaPipe's
// canonical face-mesh topology by scripts/build-zones.ts), the physical scale from the iris, and
// the upright face crop the metrics run on.

import { ZONE_IDS, type DetectedFace, type Point, type RgbaImage, type ZoneId } from './contract.ts';
import zoneData from './data/zones.json' with { type: 'json' };
import { halve, invertAffine, resampleAffine, type Affine } from './image.ts';
import { dilateMask, fillPolygons, fillTriangle, polygonMask, type Mask } from './mask.ts';

/** A polygon vertex: a landmark, or the point `t` of the way from landmark a to landmark b. */
export type ZoneVertex = number | readonly [a: number, b: number, t: number];

interface ZoneTopology {
  /** Mesh triangles (landmark index triples) covering the zone. */
  readonly triangles?: readonly (readonly number[])[];
  /** Polygons covering the zone (where the mesh's triangles are too coarse). */
  readonly polygons?: readonly (readonly ZoneVertex[])[];
  /** Closed loops around the zone, for drawing. */
  readonly outline: readonly (readonly ZoneVertex[])[];
}

export const ZONE_TOPOLOGY: Record<ZoneId, ZoneTopology> = Object.fromEntries(
  ZONE_IDS.map((zone) => [zone, (zoneData as unknown as Record<ZoneId, ZoneTopology>)[zone]]),
) as Record<ZoneId, ZoneTopology>;

// Landmark contours of the canonical mesh (MediaPipe FACEMESH_* connections), as closed loops.
/** The subject's right eye opening (eyelid margins). */
export const RIGHT_EYE = [33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246];
export const LEFT_EYE = [263, 249, 390, 373, 374, 380, 381, 382, 362, 398, 384, 385, 386, 387, 388, 466];
/** The outer edge of the lips' red. */
export const LIPS_OUTER = [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291, 375, 321, 405, 314, 17, 84, 181, 91, 146];
export const RIGHT_BROW = [46, 53, 52, 65, 55, 107, 66, 105, 63, 70];
export const LEFT_BROW = [276, 283, 282, 295, 285, 336, 296, 334, 293, 300];
export const FACE_OVAL = [
  10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136,
  172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109,
];
/** Iris landmarks: centre then four points on the iris edge, for each eye. */
export const IRISES = [
  [468, 469, 470, 471, 472],
  [473, 474, 475, 476, 477],
] as const;

/** The adult human iris diameter (horizontal visible iris diameter, ≈ 11.7 mm with little spread). */
export const IRIS_DIAMETER_MM = 11.7;
/** A typical adult inter-pupil distance, used only to sanity-check the iris scale. */
export const INTER_PUPIL_MM = 63;

const dist = (p: Point, q: Point) => Math.hypot(p[0] - q[0], p[1] - q[1]);
const xy = (face: DetectedFace, index: number): Point => {
  const p = face.mesh[index]!;
  return [p[0], p[1]];
};

/** The two pupils (iris centres), left-most in the image first. */
export function pupils(face: DetectedFace): [Point, Point] {
  const a = xy(face, IRISES[0][0]);
  const b = xy(face, IRISES[1][0]);
  return a[0] <= b[0] ? [a, b] : [b, a];
}

/** Iris diameter in pixels: the mean of both irises' two diameters. */
export function irisDiameterPx(face: DetectedFace): number {
  let sum = 0;
  for (const iris of IRISES) {
    sum += dist(xy(face, iris[1]), xy(face, iris[3])) + dist(xy(face, iris[2]), xy(face, iris[4]));
  }
  return sum / 4;
}

/**
 * Pixels per millimetre on the face: from the iris diameter, unless it disagrees with the
 * inter-pupil distance by more than a third (an iris the model followed badly), then from the latter.
 */
export function faceScale(face: DetectedFace): number {
  const [p, q] = pupils(face);
  const fromPupils = dist(p, q) / INTER_PUPIL_MM;
  const fromIris = irisDiameterPx(face) / IRIS_DIAMETER_MM;
  const ratio = fromIris / fromPupils;
  return ratio > 0.67 && ratio < 1.5 ? fromIris : fromPupils;
}

/** The landmarks the crop must hold: every zone's, and the eyes, brows and lips around them. */
const CROP_LANDMARKS: readonly number[] = (() => {
  const indices = new Set<number>([...RIGHT_EYE, ...LEFT_EYE, ...RIGHT_BROW, ...LEFT_BROW, ...LIPS_OUTER]);
  for (const zone of ZONE_IDS) {
    const topology = ZONE_TOPOLOGY[zone];
    for (const triangle of topology.triangles ?? []) for (const i of triangle) indices.add(i);
    for (const polygon of topology.polygons ?? [])
      for (const v of polygon) for (const i of typeof v === 'number' ? [v] : [v[0], v[1]]) indices.add(i);
  }
  return [...indices];
})();

/** The face cut out upright (eyes level) at a fixed number of pixels per millimetre. */
export interface FaceCrop {
  readonly width: number;
  readonly height: number;
  /** Crop pixel → source pixel. */
  readonly toSource: Affine;
  /** Source pixel → crop pixel. */
  readonly fromSource: Affine;
  readonly pxPerMm: number;
  /** The source photo's own scale on the face. */
  readonly sourcePxPerMm: number;
  /** The 478 landmarks in crop pixels. */
  readonly mesh: readonly Point[];
}

/** The crop keeps this margin around the landmarks it needs. */
export const CROP_MARGIN_MM = 3;

/** A crop never exceeds this many pixels (a face the scale was misread on must not exhaust memory). */
export const MAX_CROP_PIXELS = 600_000;

export function faceCrop(face: DetectedFace, wantedPxPerMm: number): FaceCrop {
  const [p, q] = pupils(face);
  const angle = Math.atan2(q[1] - p[1], q[0] - p[0]);
  const sourcePxPerMm = faceScale(face);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  // Upright coordinates (source pixels, rotated about the origin) of every landmark.
  let minU = Infinity;
  let maxU = -Infinity;
  let minV = Infinity;
  let maxV = -Infinity;
  for (const index of CROP_LANDMARKS) {
    const [x, y] = face.mesh[index]!;
    const u = x * cos + y * sin;
    const v = -x * sin + y * cos;
    if (u < minU) minU = u;
    if (u > maxU) maxU = u;
    if (v < minV) minV = v;
    if (v > maxV) maxV = v;
  }
  const margin = CROP_MARGIN_MM * sourcePxPerMm;
  minU -= margin;
  minV -= margin;
  maxU += margin;
  maxV += margin;
  const areaMm2 = ((maxU - minU) * (maxV - minV)) / (sourcePxPerMm * sourcePxPerMm);
  const pxPerMm = Math.min(wantedPxPerMm, Math.sqrt(MAX_CROP_PIXELS / areaMm2));
  const scale = sourcePxPerMm / pxPerMm; // source pixels per crop pixel
  const width = Math.max(8, Math.ceil((maxU - minU) / scale));
  const height = Math.max(8, Math.ceil((maxV - minV) / scale));
  // crop (x, y) → upright (minU + x·scale, minV + y·scale) → source (rotate back).
  const toSource: Affine = {
    a: scale * cos,
    b: -scale * sin,
    c: minU * cos - minV * sin,
    d: scale * sin,
    e: scale * cos,
    f: minU * sin + minV * cos,
  };
  const fromSource = invertAffine(toSource);
  const mesh = face.mesh.map(([x, y]): Point => [
    fromSource.a * x + fromSource.b * y + fromSource.c,
    fromSource.d * x + fromSource.e * y + fromSource.f,
  ]);
  return { width, height, toSource, fromSource, pxPerMm, sourcePxPerMm, mesh };
}

/**
 * The crop's pixels: the photo halved first while it is much larger than the crop's scale (a cheap
 * anti-alias before a large reduction), then resampled bilinearly into the crop.
 */
export function cropPixels(image: RgbaImage, crop: FaceCrop): RgbaImage {
  let source = image;
  let factor = 1;
  while (crop.sourcePxPerMm / (factor * 2) >= crop.pxPerMm * 1.5 && source.width >= 16 && source.height >= 16) {
    source = halve(source);
    factor *= 2;
  }
  const t = crop.toSource;
  const transform: Affine = {
    a: t.a / factor,
    b: t.b / factor,
    c: t.c / factor,
    d: t.d / factor,
    e: t.e / factor,
    f: t.f / factor,
  };
  return resampleAffine(source, crop.width, crop.height, transform);
}

const at = (mesh: readonly Point[], indices: readonly number[]): Point[] => indices.map((i) => mesh[i]!);

function vertex(mesh: readonly Point[], v: ZoneVertex): Point {
  if (typeof v === 'number') return mesh[v]!;
  const [a, b, t] = v;
  const p = mesh[a]!;
  const q = mesh[b]!;
  return [p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t];
}

/** Eyes and brows (grown by 1 mm) and the lips' red (grown by 1.5 mm) in crop pixels: never part of a zone. */
export function exclusionMask(crop: FaceCrop): Mask {
  const { width, height, mesh } = crop;
  const mask = new Uint8Array(width * height);
  for (const polygon of [RIGHT_EYE, LEFT_EYE, RIGHT_BROW, LEFT_BROW])
    fillPolygons(mask, width, height, [at(mesh, polygon)]);
  const eyes = dilateMask(mask, width, height, crop.pxPerMm);
  // The lips' outline is followed less closely by the mesh: a wider margin keeps their red out.
  const lips = dilateMask(polygonMask(width, height, [at(mesh, LIPS_OUTER)]), width, height, 1.5 * crop.pxPerMm);
  for (let i = 0; i < eyes.length; i++) eyes[i] = eyes[i]! | lips[i]!;
  return eyes;
}

/**
 * Each zone's pixels in the crop: the zone's mesh triangles minus the exclusions (`claimed`: the
 * crop's `exclusionMask`, passed when the caller has it already). A pixel on the
 * border of two zones (or under a fold of the mesh on a turned face) belongs to the first in ZONE_IDS.
 */
export function zoneMasks(crop: FaceCrop, claimed: Mask = exclusionMask(crop)): Record<ZoneId, Mask> {
  const { width, height, mesh } = crop;
  const masks = {} as Record<ZoneId, Mask>;
  for (const zone of ZONE_IDS) {
    const topology = ZONE_TOPOLOGY[zone];
    const mask = new Uint8Array(width * height);
    for (const [i, j, k] of topology.triangles ?? [])
      fillTriangle(mask, width, height, mesh[i!]!, mesh[j!]!, mesh[k!]!, claimed);
    for (const polygon of topology.polygons ?? [])
      fillPolygons(mask, width, height, [polygon.map((v) => vertex(mesh, v))], 1, claimed);
    masks[zone] = mask;
  }
  return masks;
}

/** The face inside its outline (eyes, brows and mouth included), in crop pixels. */
export function faceOvalMask(crop: FaceCrop): Mask {
  return polygonMask(crop.width, crop.height, [at(crop.mesh, FACE_OVAL)]);
}

/** Each zone's outline loops in the source image's pixels, for drawing. */
export function zoneOutlines(face: DetectedFace): Record<ZoneId, Point[][]> {
  const points = face.mesh.map(([x, y]): Point => [x, y]);
  const outlines = {} as Record<ZoneId, Point[][]>;
  for (const zone of ZONE_IDS)
    outlines[zone] = ZONE_TOPOLOGY[zone].outline.map((loop) => loop.map((v) => vertex(points, v)));
  return outlines;
}
