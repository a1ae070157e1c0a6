// The cosmetic indicators (docs/skin-analysis.md): raw measures on an upright face crop in CIELAB
// at a known number of pixels per millimetre, and their mapping to 0–100.

import type { MetricId, ZoneId } from './contract.ts';
import type { LabImage } from './colour.ts';
import { connectedBlobs, differenceOfGaussians, gaussianBlur, smoothBlur } from './filters.ts';
import { type Box, type Mask, maskBox } from './mask.ts';

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
  rednessFull: 10,
  /**
   * L* and a* are read smoothed over this σ: JPEG stores colour at half resolution, pixel noise is
   * not redness, and a highlight is an area, not a peak.
   */
  fineMm: 0.6,
  /** Evenness: L* detail between `fineMm` and `evenCoarseMm`, departures from `evenFrom` to `evenFull` L*. */
  evenCoarseMm: 4,
  evenFrom: 3,
  evenFull: 8,
  /** Dark spots: connected areas at least `spotMinMm2` whose L* lies `spotDepth` below their surroundings. */
  spotDepth: 4,
  spotMinMm2: 1,
  /**
   * Shine: a pixel counts from `shineFrom` above the skin's lightness (fully at `shineFull`), as a
   * ratio of (L* + 16) — 0.1 ≈ 8 L* units on mid-tone skin — when nearly colourless.
   */
  shineFrom: 0.1,
  shineFull: 0.3,
  /** Skin test: a pixel this much brighter than the reference may be a highlight whatever its colour. */
  skinHighlight: 8,
  /** Texture: L* energy between `textureFineMm` and `textureCoarseMm`, in L* units for a score of 63. */
  textureFineMm: 0.25,
  textureCoarseMm: 1,
  textureScale: 2.5,
  /** Zone edges are softened over this σ when averaging (see measureZone). */
  edgeSoftnessMm: 1.5,
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

/** The values of `plane` where `mask` is set. */
export function valuesIn(plane: Float32Array, mask: Mask): Float32Array {
  let count = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i] !== 0) count++;
  const out = new Float32Array(count);
  let n = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i] !== 0) out[n++] = plane[i]!;
  return out;
}

export interface SkinReference {
  readonly L: number;
  readonly a: number;
  readonly b: number;
  readonly chroma: number;
}

/** The face's own skin colour: medians of L*, a*, b* over `area` (the zones). */
export function skinReference(lab: LabImage, area: Mask): SkinReference {
  let count = 0;
  for (let i = 0; i < area.length; i++) if (area[i] !== 0) count++;
  const Ls = new Float32Array(count);
  const as = new Float32Array(count);
  const bs = new Float32Array(count);
  for (let i = 0, n = 0; i < area.length; i++) {
    if (area[i] === 0) continue;
    Ls[n] = lab.L[i]!;
    as[n] = lab.a[i]!;
    bs[n++] = lab.b[i]!;
  }
  const L = median(Ls);
  const a = median(as);
  const b = median(bs);
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
    if (closeColour || L >= reference.L + t.skinHighlight) {
      out[i] = 1;
      if (union) union[i] = 1;
    }
  }
  return out;
}

/**
 * Blurs that ignore pixels outside `mask` (normalised convolution), so edges do not bleed in: one
 * result per plane, all at the same σ (the mask's own blur is shared).
 */
function maskedBlurs(planes: Float32Array[], mask: Mask, width: number, height: number, sigma: number): Float32Array[] {
  const weights = new Float32Array(mask.length);
  for (let i = 0; i < mask.length; i++) weights[i] = mask[i] === 0 ? 0 : 1;
  const den = smoothBlur(weights, width, height, sigma);
  return planes.map((plane) => {
    const weighted = new Float32Array(plane.length);
    for (let i = 0; i < plane.length; i++) if (mask[i] !== 0) weighted[i] = plane[i]!;
    const num = smoothBlur(weighted, width, height, sigma);
    for (let i = 0; i < num.length; i++) num[i] = den[i]! > 1e-3 ? num[i]! / den[i]! : 0;
    return num;
  });
}

/** The per-pixel fields every zone's metrics read, computed once per face. */
export interface MetricFields {
  readonly reference: SkinReference;
  /** a* above the reference, ramped 0–1. */
  readonly red: Float32Array;
  /** |L* departure from the local mean|, ramped 0–1. */
  readonly uneven: Float32Array;
  /** Dark spots (connected, ≥ spotMinMm2): 1 at each spot's centre. */
  readonly spots: Uint8Array;
  /** Pixels of those dark spots. */
  readonly spotPixels: Uint8Array;
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
  // Colour and lightness are read a little smoothed: a JPEG stores colour at half resolution, pixel
  // noise is not redness, and a highlight's extent should not depend on how sharp its peak came out.
  // At this small scale a plain blur: the little that bleeds in from beyond the skin's edge is softened
  // away by the zones' soft weights.
  const fine = gaussianBlur(lab.L, width, height, t.fineMm * pxPerMm);
  const a = gaussianBlur(lab.a, width, height, t.fineMm * pxPerMm);
  const [coarse] = maskedBlurs([lab.L], skin, width, height, t.evenCoarseMm * pxPerMm) as [Float32Array];
  for (let i = 0; i < n; i++) {
    if (skin[i] === 0) continue;
    // a* relative to (L* + 16), which scales alike with exposure: a shadow or a brighter photo of the
    // same skin is not redder; expressed in a* units at the skin reference's lightness.
    const redder = (a[i]! / (fine[i]! + 16) - reference.a / (reference.L + 16)) * (reference.L + 16);
    red[i] = ramp(redder, t.rednessFrom, t.rednessFull);
    const chroma = Math.sqrt(a[i]! ** 2 + lab.b[i]! ** 2);
    // Relative to the skin's own lightness ((L* + 16) ∝ Y^⅓), so a brighter or darker exposure of the
    // same face finds the same highlights.
    const lift = (fine[i]! + 16) / (reference.L + 16) - 1;
    shine[i] = ramp(lift, t.shineFrom, t.shineFull) * ramp(reference.chroma - chroma, -2, 4);
  }
  const uneven = new Float32Array(n);
  const dark = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (skin[i] === 0 || shine[i]! > 0) continue;
    const departure = fine[i]! - coarse[i]!;
    uneven[i] = ramp(Math.abs(departure), t.evenFrom, t.evenFull);
    if (departure <= -t.spotDepth) dark[i] = 1;
  }
  const spots = new Uint8Array(n);
  const spotPixels = new Uint8Array(n);
  const minArea = t.spotMinMm2 * pxPerMm * pxPerMm;
  for (const blob of connectedBlobs(dark, width, height, minArea, spotPixels))
    spots[Math.floor(blob.y) * width + Math.floor(blob.x)] = 1;
  const band = differenceOfGaussians(lab.L, width, height, t.textureFineMm * pxPerMm, t.textureCoarseMm * pxPerMm);
  const texture = new Float32Array(n);
  for (let i = 0; i < n; i++) texture[i] = Math.abs(band[i]!);
  return { reference, red, uneven, spots, spotPixels, shine, texture };
}

/** The mask blurred by σ over `box` (the mask's bounding box plus 3σ): one value per pixel of the box. */
function softWeights(mask: Mask, width: number, box: Box, sigma: number): Float32Array {
  const w = box.x1 - box.x0 + 1;
  const h = box.y1 - box.y0 + 1;
  const inBox = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const from = (y + box.y0) * width + box.x0;
    for (let x = 0; x < w; x++) inBox[y * w + x] = mask[from + x]! ? 1 : 0;
  }
  return smoothBlur(inBox, w, h, sigma);
}

/** Raw measures of one zone (before the 0–100 mapping), for the docs and tuning. */
export interface ZoneMeasures {
  readonly pixels: number;
  readonly redShare: number;
  readonly unevenShare: number;
  readonly spotsPerCm2: number;
  /** Share of the zone covered by dark spots. */
  readonly spotShare: number;
  readonly shineShare: number;
  /** Median |band-pass L*| × 1.4826 (a robust σ), L* units. */
  readonly textureEnergy: number;
  readonly medianL: number;
}

export function measureZone(fields: MetricFields, lab: LabImage, mask: Mask, pxPerMm: number): ZoneMeasures {
  // Soft weights: a pixel near the zone's edge counts less, so a landmark that moves by a pixel or
  // two moves the result less. Computed over the zone's bounding box only.
  const sigma = METRIC_TUNING.edgeSoftnessMm * pxPerMm;
  const box = maskBox(mask, lab.width, lab.height, Math.ceil(3 * sigma));
  const empty = { pixels: 0, redShare: 0, unevenShare: 0, spotsPerCm2: 0, spotShare: 0, shineShare: 0 };
  if (!box) return { ...empty, textureEnergy: 0, medianL: NaN };
  const weights = softWeights(mask, lab.width, box, sigma);
  const boxWidth = box.x1 - box.x0 + 1;
  let pixels = 0;
  for (let y = box.y0; y <= box.y1; y++)
    for (let i = y * lab.width + box.x0, end = y * lab.width + box.x1; i <= end; i++) if (mask[i] !== 0) pixels++;
  let weight = 0;
  let red = 0;
  let uneven = 0;
  let shine = 0;
  let spots = 0;
  let spotPixels = 0;
  let bare = 0;
  let n = 0;
  const energies = new Float32Array(pixels);
  const Ls = new Float32Array(pixels);
  for (let y = box.y0; y <= box.y1; y++) {
    const row = y * lab.width;
    const weightRow = (y - box.y0) * boxWidth - box.x0;
    for (let x = box.x0; x <= box.x1; x++) {
      const i = row + x;
      if (mask[i] === 0) continue;
      Ls[n++] = lab.L[i]!;
      spotPixels += fields.spotPixels[i]!;
      const w = weights[weightRow + x]!;
      weight += w;
      red += fields.red[i]! * w;
      uneven += fields.uneven[i]! * w;
      shine += fields.shine[i]! * w;
      spots += fields.spots[i]!;
      if (fields.shine[i] === 0) energies[bare++] = fields.texture[i]!;
    }
  }
  const areaCm2 = pixels / (pxPerMm * pxPerMm * 100);
  return {
    pixels,
    redShare: weight > 0 ? red / weight : 0,
    unevenShare: weight > 0 ? uneven / weight : 0,
    spotsPerCm2: areaCm2 > 0 ? spots / areaCm2 : 0,
    spotShare: pixels ? spotPixels / pixels : 0,
    shineShare: weight > 0 ? shine / weight : 0,
    textureEnergy: bare ? median(energies.subarray(0, bare)) * 1.4826 : 0,
    medianL: median(Ls),
  };
}

/** 0–100 scores of one zone from its measures (darkCircles needs the cheeks: see `darkCirclesScore`). */
export function zoneScores(zone: ZoneId, m: ZoneMeasures): Partial<Record<MetricId, number>> {
  const t = METRIC_TUNING;
  const scores: Partial<Record<MetricId, number>> = {};
  for (const metric of ZONE_METRICS[zone]) {
    if (metric === 'redness') scores.redness = toScore(m.redShare);
    if (metric === 'evenness') scores.evenness = toScore(1 - m.unevenShare);
    if (metric === 'shine') scores.shine = toScore(m.shineShare * 4);
    if (metric === 'texture') scores.texture = toScore(1 - Math.exp(-m.textureEnergy / t.textureScale));
  }
  return scores;
}

/** Dark circles: how much darker (L*) the under-eye skin is than the cheeks. */
export function darkCirclesScore(eyeAreaL: number, cheekL: number): number {
  return toScore(((cheekL - eyeAreaL) * METRIC_TUNING.darkCirclesPerL) / 100);
}
