// The cosmetic indicators (docs/skin-analysis.md): raw measures on an upright face crop in CIELAB
// at a known number of pixels per millimetre, and their mapping to 0–100.

import type { MetricId, ZoneId } from './contract.ts';
import type { LabImage } from './colour.ts';
import { connectedBlobs, differenceOfGaussians, gaussianBlur, smoothBlur } from './filters.ts';
import { type Box, dilateMask, type Mask, maskBox } from './mask.ts';

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
  /**
   * Skin test: a pixel whose (L* + 16) is below this share of the reference's is hair, brow or shadow
   * (≈ 22 L* darker on skin of L* 65, 11 on skin of L* 25: a ratio, so hair is found on every complexion)…
   */
  skinMinLightRatio: 0.73,
  /** …or this far in a* below it / above it (a red patch is still skin), or in b*. */
  skinMaxLessA: 10,
  skinMaxMoreA: 30,
  skinMaxDeltaB: 14,
  /** Redness: a pixel counts from `rednessFrom` a* units above its zone's reference, fully from `rednessFull`. */
  rednessFrom: 2,
  rednessFull: 10,
  /**
   * L* and a* are read smoothed over this σ: JPEG stores colour at half resolution, pixel noise is
   * not redness, and a highlight is an area, not a peak.
   */
  fineMm: 0.6,
  /**
   * Evenness: L* (at `fineMm`) against its surroundings (a local mean over `evenCoarseMm` of skin), as a
   * ratio — so a darker complexion or a dimmer photo, whose departures are smaller in L* units, reads
   * the same — counted from `evenFrom` to `evenFull` (≈ 3 → 8 L* on skin of L* 65).
   */
  evenCoarseMm: 4,
  evenFrom: 0.045,
  evenFull: 0.12,
  /** Each unit of uneven share takes this many units off the evenness score. */
  evenWeight: 1.5,
  /** Dark spots: connected areas at least `spotMinMm2` whose L* lies `spotDepth` (a ratio) below their surroundings. */
  spotDepth: 0.06,
  spotMinMm2: 1,
  /** Texture ignores the skin within this distance of a dark spot (a spot is unevenness, not grain). */
  spotGuardMm: 2,
  /**
   * Shine: a highlight is light added to the skin. Its strength is the luminance Y above the skin's own
   * in its surroundings (a local mean over `shineContextMm`, highlights left out, so a gradient of
   * light across the face is not shine), divided by √Y of the skin around it — between the ratio
   * (which favours light skin's headroom… against it) and the absolute (which would count exposure):
   * counted from `shineFrom` to `shineFull`, when the pixel is less colourful than its surroundings.
   */
  shineContextMm: 5,
  shineCandidate: 1.08,
  shineFrom: 0.15,
  shineFull: 0.45,
  /** The highlight's whiteness: the drop of chroma / (L* + 16) against the surroundings, from… to… */
  shineWhiteFrom: -0.05,
  shineWhiteFull: 0.1,
  /** Each unit of shining share adds this many units to the shine score (25 % of the zone = 100). */
  shineWeight: 4,
  /** Skin test: a pixel this much brighter than the reference may be a highlight whatever its colour. */
  skinHighlight: 8,
  /**
   * Texture: L* between Gaussians of `textureFineMm` and `textureCoarseMm`, as a ratio of the local L*
   * (so skin tone and exposure do not count); `textureScale` of it scores 63.
   */
  textureFineMm: 0.5,
  textureCoarseMm: 2,
  textureScale: 0.015,
  /** Zone edges are softened over this σ when averaging (see measureZone). */
  edgeSoftnessMm: 1.5,
  /**
   * Dark circles: the under-eye's lightness against the cheeks', as the ratio (L* + 16) — 1 − ratio is
   * how much darker, relative to the face's own skin; score = 50 + `darkCirclesGain` × (1 − ratio), so
   * 50 is "as light as the cheeks", higher is darker (−4 L* on skin of L* 60 ≈ +10.5), lower is lighter.
   */
  darkCirclesGain: 200,
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

/** Median (or the `quantile`) of the values (reordered in place); the upper median for an even count. */
export function median(values: Float32Array, quantile = 0.5): number {
  if (values.length === 0) return NaN;
  return select(values, Math.min(values.length - 1, Math.floor(values.length * quantile)));
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
    if (L + 16 < (reference.L + 16) * t.skinMinLightRatio) continue;
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

/** Linear luminance Y (0–1) of an L* value. */
const luminance = (L: number) => {
  const f = (L + 16) / 116;
  return f * f * f;
};

/** The per-pixel fields every zone's metrics read, computed once per face. */
export interface MetricFields {
  readonly reference: SkinReference;
  /** a* / (L* + 16), smoothed: redness relative to lightness (compared per zone with a reference ratio). */
  readonly redRatio: Float32Array;
  /** |relative L* departure from the local mean|, ramped 0–1. */
  readonly uneven: Float32Array;
  /** Dark spots (connected, ≥ spotMinMm2): 1 at each spot's centre. */
  readonly spots: Uint8Array;
  /** Pixels of those dark spots. */
  readonly spotPixels: Uint8Array;
  /** Within `spotGuardMm` of a dark spot: texture leaves them out. */
  readonly nearSpot: Uint8Array;
  /** Specular highlight, 0–1. */
  readonly shine: Float32Array;
  /** |band-pass L*| at the texture scale, relative to the local L*. */
  readonly texture: Float32Array;
}

export function metricFields(lab: LabImage, skin: Mask, reference: SkinReference, pxPerMm: number): MetricFields {
  const t = METRIC_TUNING;
  const { width, height } = lab;
  const n = width * height;
  // Colour and lightness are read a little smoothed: a JPEG stores colour at half resolution, pixel
  // noise is not redness, and a highlight's extent should not depend on how sharp its peak came out.
  // At this small scale a plain blur: the little that bleeds in from beyond the skin's edge is softened
  // away by the zones' soft weights.
  const fineSigma = t.fineMm * pxPerMm;
  const fine = gaussianBlur(lab.L, width, height, fineSigma);
  const a = gaussianBlur(lab.a, width, height, fineSigma);
  const b = gaussianBlur(lab.b, width, height, fineSigma);
  const redRatio = new Float32Array(n);
  const Y = new Float32Array(n);
  const whiteness = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (skin[i] === 0) continue;
    // a* relative to (L* + 16), which scales alike with exposure: a shadow or a brighter photo of the
    // same skin is not redder.
    redRatio[i] = a[i]! / (fine[i]! + 16);
    Y[i] = luminance(fine[i]!);
    whiteness[i] = Math.sqrt(a[i]! ** 2 + b[i]! ** 2) / (fine[i]! + 16);
  }
  // Shine: the skin's own luminance and colourfulness around each pixel, bright pixels left out of it
  // (a first local mean finds them), so a highlight does not raise its own surroundings and a smooth
  // gradient of light is followed rather than counted.
  const context = t.shineContextMm * pxPerMm;
  const [firstY] = maskedBlurs([Y], skin, width, height, context) as [Float32Array];
  const diffuseSkin = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (skin[i] !== 0 && Y[i]! <= firstY[i]! * t.shineCandidate) diffuseSkin[i] = 1;
  const [diffuseY, diffuseWhite] = maskedBlurs([Y, whiteness], diffuseSkin, width, height, context) as [
    Float32Array,
    Float32Array,
  ];
  const [coarse] = maskedBlurs([lab.L], skin, width, height, t.evenCoarseMm * pxPerMm) as [Float32Array];
  const shine = new Float32Array(n);
  const uneven = new Float32Array(n);
  const dark = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (skin[i] === 0) continue;
    const around = diffuseY[i]!;
    if (around > 0) {
      const lift = (Y[i]! - around) / Math.sqrt(around);
      const whiter = diffuseWhite[i]! > 0 ? 1 - whiteness[i]! / diffuseWhite[i]! : 0;
      shine[i] = ramp(lift, t.shineFrom, t.shineFull) * ramp(whiter, t.shineWhiteFrom, t.shineWhiteFull);
    }
    if (shine[i]! > 0 || coarse[i]! <= 1) continue;
    const departure = fine[i]! / coarse[i]! - 1;
    uneven[i] = ramp(Math.abs(departure), t.evenFrom, t.evenFull);
    if (departure <= -t.spotDepth) dark[i] = 1;
  }
  const spots = new Uint8Array(n);
  const spotPixels = new Uint8Array(n);
  const minArea = t.spotMinMm2 * pxPerMm * pxPerMm;
  for (const blob of connectedBlobs(dark, width, height, minArea, spotPixels))
    spots[Math.floor(blob.y) * width + Math.floor(blob.x)] = 1;
  const nearSpot = dilateMask(spotPixels, width, height, t.spotGuardMm * pxPerMm);
  const band = differenceOfGaussians(lab.L, width, height, t.textureFineMm * pxPerMm, t.textureCoarseMm * pxPerMm);
  const texture = new Float32Array(n);
  for (let i = 0; i < n; i++) texture[i] = coarse[i]! > 1 ? Math.abs(band[i]!) / coarse[i]! : 0;
  return { reference, redRatio, uneven, spots, spotPixels, nearSpot, shine, texture };
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
  /** Median |band-pass L*| / L* × 1.4826 (a robust σ, relative to the skin's lightness). */
  readonly textureEnergy: number;
  readonly medianL: number;
}

/** The median of `values` where `mask` is set: one zone's typical value of a field. */
export function zoneMedian(values: Float32Array, mask: Mask): number {
  return median(valuesIn(values, mask));
}

/**
 * The redness reference of each zone: the median, over the OTHER zones that report redness, of their
 * median a* / (L* + 16). A zone is never compared with itself, and a change in one zone moves the others'
 * reference only when it moves that zone past another's median (a median of medians is robust).
 */
export function rednessReferences(fields: MetricFields, skinMasks: Partial<Record<ZoneId, Mask>>): Map<ZoneId, number> {
  const medians = new Map<ZoneId, number>();
  for (const [zone, mask] of Object.entries(skinMasks) as [ZoneId, Mask][]) {
    if (!ZONE_METRICS[zone].includes('redness')) continue;
    const value = zoneMedian(fields.redRatio, mask);
    if (Number.isFinite(value)) medians.set(zone, value);
  }
  const references = new Map<ZoneId, number>();
  for (const zone of medians.keys()) {
    const others = new Float32Array([...medians].filter(([other]) => other !== zone).map(([, value]) => value));
    references.set(zone, others.length ? median(others) : medians.get(zone)!);
  }
  return references;
}

export function measureZone(
  fields: MetricFields,
  lab: LabImage,
  mask: Mask,
  pxPerMm: number,
  redReference = fields.reference.a / (fields.reference.L + 16),
): ZoneMeasures {
  const t = METRIC_TUNING;
  // Soft weights: a pixel near the zone's edge counts less, so a landmark that moves by a pixel or
  // two moves the result less. Computed over the zone's bounding box only.
  const sigma = t.edgeSoftnessMm * pxPerMm;
  const box = maskBox(mask, lab.width, lab.height, Math.ceil(3 * sigma));
  const empty = { pixels: 0, redShare: 0, unevenShare: 0, spotsPerCm2: 0, spotShare: 0, shineShare: 0 };
  if (!box) return { ...empty, textureEnergy: 0, medianL: NaN };
  const weights = softWeights(mask, lab.width, box, sigma);
  const boxWidth = box.x1 - box.x0 + 1;
  // Redness in a* units at the face's lightness: (ratio − the zone's reference ratio) × (L* + 16).
  const redScale = fields.reference.L + 16;
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
      red += ramp((fields.redRatio[i]! - redReference) * redScale, t.rednessFrom, t.rednessFull) * w;
      uneven += fields.uneven[i]! * w;
      shine += fields.shine[i]! * w;
      spots += fields.spots[i]!;
      if (fields.shine[i] === 0 && fields.nearSpot[i] === 0) energies[bare++] = fields.texture[i]!;
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
    if (metric === 'evenness') scores.evenness = toScore(1 - m.unevenShare * t.evenWeight);
    if (metric === 'shine') scores.shine = toScore(m.shineShare * t.shineWeight);
    if (metric === 'texture') scores.texture = toScore(1 - Math.exp(-m.textureEnergy / t.textureScale));
  }
  return scores;
}

/**
 * Dark circles: how much darker the under-eye skin is than the cheeks, relative to their lightness
 * ((L* + 16), which scales alike with exposure and complexion) — signed: 50 when as light as the cheeks.
 */
export function darkCirclesScore(eyeAreaL: number, cheekL: number): number {
  const darker = 1 - (eyeAreaL + 16) / (cheekL + 16);
  return toScore((50 + METRIC_TUNING.darkCirclesGain * darker) / 100);
}
