// The cosmetic indicators (docs/skin-analysis.md): raw measures on an upright face crop in CIELAB
// at a known number of pixels per millimetre, and their mapping to 0–100.

import type { MetricId, ZoneId } from './contract.ts';
import type { LabImage } from './colour.ts';
import { connectedBlobs, differenceOfGaussians, gaussianBlur } from './filters.ts';
import type { Mask } from './mask.ts';

/** Which metrics each zone reports. */
export const ZONE_METRICS: Record<ZoneId, readonly MetricId[]> = {
  forehead: ['redness', 'evenness', 'shine', 'texture'],
  leftCheek: ['redness', 'evenness', 'shine', 'texture'],
  rightCheek: ['redness', 'evenness', 'shine', 'texture'],
  eyeArea: ['texture', 'darkCircles'],
  nose: ['redness', 'evenness', 'shine', 'texture'],
  chin: ['redness', 'evenness', 'shine', 'texture'],
  lipContour: ['redness', 'evenness', 'texture'],
};

/** Tuning of the measures; physical sizes in millimetres, colour in CIELAB units. */
export const METRIC_TUNING = {
  /** Skin test: a pixel this much darker than the skin reference is hair, brow or shadow… */
  skinMaxDarker: 22,
  /** …or this far in a* below it / above it (a red patch is still skin), or in b*. */
  skinMaxLessA: 10,
  skinMaxMoreA: 30,
  skinMaxDeltaB: 14,
  /** Redness: a pixel counts from `rednessFrom` a* units above the face's reference, fully from `rednessFull`. */
  rednessFrom: 2,
  rednessFull: 7,
  /** Evenness: L* detail between `evenFineMm` and `evenCoarseMm`, departures from `evenFrom` to `evenFull` L*. */
  evenFineMm: 0.4,
  evenCoarseMm: 4,
  evenFrom: 2.5,
  evenFull: 6,
  /** Dark spots: connected areas at least `spotMinMm2` whose L* lies `spotDepth` below their surroundings. */
  spotDepth: 4,
  spotMinMm2: 1,
  /** Shine: a pixel counts from `shineFrom` L* above the reference (fully at `shineFull`), when nearly colourless. */
  shineFrom: 10,
  shineFull: 22,
  /** Texture: L* energy between `textureFineMm` and `textureCoarseMm`, in L* units for a score of 63. */
  textureFineMm: 0.25,
  textureCoarseMm: 1,
  textureScale: 2.5,
  /** Dark circles: score = 5 × ΔL* (cheek minus under-eye), so 20 L* units = 100. */
  darkCirclesPerL: 5,
} as const;

const clamp01 = (value: number) => (value < 0 ? 0 : value > 1 ? 1 : value);
const ramp = (value: number, from: number, full: number) => clamp01((value - from) / (full - from));
export const toScore = (fraction: number) => Math.round(clamp01(fraction) * 1000) / 10;

/** The k-th smallest value (0-based), reordering `values` in place (Hoare's selection, O(n)). */
export function select(values: Float32Array, k: number): number {
  let left = 0;
  let right = values.length - 1;
  while (left < right) {
    const pivot = values[(left + right) >> 1]!;
    let i = left;
    let j = right;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const swap = values[i]!;
        values[i] = values[j]!;
        values[j] = swap;
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else break;
  }
  return values[k]!;
}

/** Median of the values (reordered in place); the upper median for an even count. */
export function median(values: Float32Array): number {
  if (values.length === 0) return NaN;
  return select(values, values.length >> 1);
}

function valuesIn(plane: Float32Array, mask: Mask): Float32Array {
  const out = new Float32Array(plane.length);
  let n = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i] !== 0) out[n++] = plane[i]!;
  return out.subarray(0, n);
}

export interface SkinReference {
  readonly L: number;
  readonly a: number;
  readonly b: number;
  readonly chroma: number;
}

/** The face's own skin colour: medians over both cheeks (the most reliably bare skin). */
export function skinReference(lab: LabImage, cheeks: Mask): SkinReference {
  const L = median(valuesIn(lab.L, cheeks));
  const a = median(valuesIn(lab.a, cheeks));
  const b = median(valuesIn(lab.b, cheeks));
  return { L, a, b, chroma: Math.hypot(a, b) };
}

/**
 * Keeps in `mask` the pixels that look like skin next to the reference: removes hair, brows,
 * beard and deep shadow; keeps highlights (bright, nearly colourless), which are skin that shines.
 * The kept pixels are also set in `union` when given.
 */
export function keepSkin(lab: LabImage, mask: Mask, reference: SkinReference, union?: Mask): Mask {
  const t = METRIC_TUNING;
  const out = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) {
    if (mask[i] === 0) continue;
    const L = lab.L[i]!;
    if (L < reference.L - t.skinMaxDarker) continue;
    const da = lab.a[i]! - reference.a;
    const closeColour =
      da >= -t.skinMaxLessA && da <= t.skinMaxMoreA && Math.abs(lab.b[i]! - reference.b) <= t.skinMaxDeltaB;
    if (closeColour || L >= reference.L + t.shineFrom) {
      out[i] = 1;
      if (union) union[i] = 1;
    }
  }
  return out;
}

/** Blur that ignores pixels outside `mask` (normalised convolution), so edges do not bleed in. */
function maskedBlur(plane: Float32Array, mask: Mask, width: number, height: number, sigma: number): Float32Array {
  const weighted = new Float32Array(plane.length);
  const weights = new Float32Array(plane.length);
  for (let i = 0; i < plane.length; i++) {
    if (mask[i] === 0) continue;
    weighted[i] = plane[i]!;
    weights[i] = 1;
  }
  const num = gaussianBlur(weighted, width, height, sigma);
  const den = gaussianBlur(weights, width, height, sigma);
  for (let i = 0; i < num.length; i++) num[i] = den[i]! > 1e-3 ? num[i]! / den[i]! : 0;
  return num;
}

/** The per-pixel fields every zone's metrics read, computed once per face. */
export interface MetricFields {
  readonly reference: SkinReference;
  /** a* above the reference, ramped 0–1. */
  readonly red: Float32Array;
  /** |L* departure from the local mean|, ramped 0–1. */
  readonly uneven: Float32Array;
  /** Dark spots (connected, ≥ spotMinMm2). */
  readonly spots: Uint8Array;
  /** Specular highlight, 0–1. */
  readonly shine: Float32Array;
  /** |band-pass L*| at the texture scale. */
  readonly texture: Float32Array;
}

export function metricFields(lab: LabImage, skin: Mask, reference: SkinReference, pxPerMm: number): MetricFields {
  const t = METRIC_TUNING;
  const { width, height } = lab;
  const n = width * height;
  const red = new Float32Array(n);
  const shine = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (skin[i] === 0) continue;
    red[i] = ramp(lab.a[i]! - reference.a, t.rednessFrom, t.rednessFull);
    const a = lab.a[i]!;
    const b = lab.b[i]!;
    const chroma = Math.sqrt(a * a + b * b);
    shine[i] = ramp(lab.L[i]! - reference.L, t.shineFrom, t.shineFull) * ramp(reference.chroma - chroma, -2, 4);
  }
  const fine = maskedBlur(lab.L, skin, width, height, t.evenFineMm * pxPerMm);
  const coarse = maskedBlur(lab.L, skin, width, height, t.evenCoarseMm * pxPerMm);
  const uneven = new Float32Array(n);
  const dark = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (skin[i] === 0 || shine[i]! > 0) continue;
    const departure = fine[i]! - coarse[i]!;
    uneven[i] = ramp(Math.abs(departure), t.evenFrom, t.evenFull);
    if (departure <= -t.spotDepth) dark[i] = 1;
  }
  const spots = new Uint8Array(n);
  const minArea = t.spotMinMm2 * pxPerMm * pxPerMm;
  for (const blob of connectedBlobs(dark, width, height, minArea))
    spots[Math.floor(blob.y) * width + Math.floor(blob.x)] = 1;
  const band = differenceOfGaussians(lab.L, width, height, t.textureFineMm * pxPerMm, t.textureCoarseMm * pxPerMm);
  const texture = new Float32Array(n);
  for (let i = 0; i < n; i++) texture[i] = Math.abs(band[i]!);
  return { reference, red, uneven, spots, shine, texture };
}

/** Raw measures of one zone (before the 0–100 mapping), for the docs and tuning. */
export interface ZoneMeasures {
  readonly pixels: number;
  readonly redShare: number;
  readonly unevenShare: number;
  readonly spotsPerCm2: number;
  readonly shineShare: number;
  /** Median |band-pass L*| × 1.4826 (a robust σ), L* units. */
  readonly textureEnergy: number;
  readonly medianL: number;
}

export function measureZone(fields: MetricFields, lab: LabImage, mask: Mask, pxPerMm: number): ZoneMeasures {
  let pixels = 0;
  let red = 0;
  let uneven = 0;
  let shine = 0;
  let spots = 0;
  let bare = 0;
  const energies = new Float32Array(mask.length);
  const Ls = new Float32Array(mask.length);
  for (let i = 0; i < mask.length; i++) {
    if (mask[i] === 0) continue;
    Ls[pixels] = lab.L[i]!;
    pixels++;
    red += fields.red[i]!;
    uneven += fields.uneven[i]!;
    shine += fields.shine[i]!;
    spots += fields.spots[i]!;
    if (fields.shine[i] === 0) energies[bare++] = fields.texture[i]!;
  }
  const areaCm2 = pixels / (pxPerMm * pxPerMm * 100);
  return {
    pixels,
    redShare: pixels ? red / pixels : 0,
    unevenShare: pixels ? uneven / pixels : 0,
    spotsPerCm2: areaCm2 > 0 ? spots / areaCm2 : 0,
    shineShare: pixels ? shine / pixels : 0,
    textureEnergy: bare ? median(energies.subarray(0, bare)) * 1.4826 : 0,
    medianL: median(Ls.subarray(0, pixels)),
  };
}

/** 0–100 scores of one zone from its measures (darkCircles needs the cheeks: see `darkCirclesScore`). */
export function zoneScores(zone: ZoneId, m: ZoneMeasures): Partial<Record<MetricId, number>> {
  const t = METRIC_TUNING;
  const scores: Partial<Record<MetricId, number>> = {};
  for (const metric of ZONE_METRICS[zone]) {
    if (metric === 'redness') scores.redness = toScore(m.redShare);
    if (metric === 'evenness') scores.evenness = toScore(1 - m.unevenShare - 0.1 * m.spotsPerCm2);
    if (metric === 'shine') scores.shine = toScore(Math.sqrt(m.shineShare * 4));
    if (metric === 'texture') scores.texture = toScore(1 - Math.exp(-m.textureEnergy / t.textureScale));
  }
  return scores;
}

/** Dark circles: how much darker (L*) the under-eye skin is than the cheeks. */
export function darkCirclesScore(eyeAreaL: number, cheekL: number): number {
  return toScore(((cheekL - eyeAreaL) * METRIC_TUNING.darkCirclesPerL) / 100);
}
