// The cosmetic indicators (docs/skin-analysis.md): raw measures on an upright face crop in CIELAB
// at a known number of pixels per millimetre, and their mapping to 0–100.

import type { MetricId, ZoneId } from './contract.ts';
import type { LabImage } from './colour.ts';
import { differenceOfGaussians, gaussianBlur, smoothBlur } from './filters.ts';
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
  /**
   * Skin test: a pixel whose (L* + 16) is below this share of the reference's is hair, brow or shadow
   * (≈ 22 L* darker on skin of L* 65, 11 on skin of L* 25: a ratio, so hair is found on every complexion)…
   */
  skinMinLightRatio: 0.73,
  /** …or this far in a* below it / above it (a red patch is still skin), or in b*. */
  skinMaxLessA: 10,
  skinMaxMoreA: 30,
  skinMaxDeltaB: 14,
  /**
   * Redness: a pixel counts from `rednessFrom` a* units above the reference, fully from `rednessFull`.
   * The reference is the face's outer skin (temples, jaw, the skin between the zones) at least
   * `outerMarginMm` from every zone, so that redness in one zone moves no other; when less than
   * `outerMinCm2` of it shows, each zone is compared with the other zones (`rednessReferences`).
   */
  rednessFrom: 1,
  rednessFull: 9,
  outerMarginMm: 3,
  outerMinCm2: 2,
  /**
   * L* and a* are read smoothed over this σ: JPEG stores colour at half resolution, pixel noise is
   * not redness, and a highlight is an area, not a peak.
   */
  fineMm: 0.6,
  /**
   * Evenness counts dark spots (docs/skin-analysis.md §Metrics): the skin's L* read at `spotCentreMm`
   * against its surroundings over `spotSurroundMm` (a centre–surround filter tuned to spots of 1–4 mm;
   * finer grain and broad shading fall outside it), as a ratio of (L* + 16) — which scales with the cube
   * root of the light, so an exposure change leaves it as it is, and a darker complexion or a dimmer photo
   * reads the same (a ratio of L* itself read the same spot deeper on dark skin, and the skin's own dips
   * there crowded the painted ones out). Each local minimum at least `spotFrom` below its surroundings is
   * a spot, of strength 0 → 1 between `spotFrom` and `spotFull` (≈ 3.6 → 5.3 L* on skin of L* 65);
   * minima closer than `spotSeparationMm` are one spot (at 1.5 mm, the freckles of a freckled cheek
   * merged and split from one re-capture to the next: the p95 of its count over 12 re-captures was 5.7
   * points, 3.3 at 3 mm; docs/skin-analysis.md § What changed in `skin-7`). The surroundings leave out
   * what they first read as dark (see darkSpots). Evenness = 100 − `evenPerSpot` × the zone's count of
   * spots, each by its strength and by the zone's soft edge weight (see measureZone): a count per zone,
   * not per cm², so sixteen spots read alike on a small forehead and on a large cheek (per cm², they were
   * drowned on a large cheek).
   */
  spotCentreMm: 0.5,
  spotSurroundMm: 2.5,
  spotFrom: 0.045,
  spotFull: 0.065,
  spotSeparationMm: 3,
  evenPerSpot: 1,
  /**
   * A spot stands out of the skin's own relief: its depth is at least `spotSignificance` × the RMS
   * depth of the skin around it (over `spotNoiseMm`, each pixel's depth capped at `spotNoiseCap`, so
   * that neighbouring spots do not hide one another). Millimetre relief is as deep as a faint spot, but
   * its dips are many and as deep as its bumps are high: they raise the RMS with them, while a spot on
   * smooth skin is alone in its surroundings. (Without it, 2 L* RMS of relief on the chin read as spots:
   * evenness fell by up to 4.6 floors, and filling them took a quarter of the relief out of texture.)
   * Past `spotSignificance` a dip is a spot for the texture's filling (below, from
   * `textureDipSignificance`, a dip). Evenness counts a dip by how far it stands out, from nothing at
   * `spotCountFrom` × the relief to fully at `spotCountFull` ×: a spot on the edge no longer comes and
   * goes whole between two photos of the same skin (a hard cut at 2.5 × made re-captures of a freckled
   * cheek differ by up to 9.7 spots; docs/skin-analysis.md § What changed in `skin-6`).
   */
  spotSignificance: 2.5,
  spotCountFrom: 2,
  spotCountFull: 3.5,
  spotNoiseMm: 4,
  spotNoiseCap: 0.07,
  /**
   * A spot lies in the skin: evenness counts a minimum by the share of the pixels around it (a Gaussian
   * of σ `spotSkinMm`) that are skin the analysis reads — in a zone, kept by the skin test — from nothing
   * at `spotSkinFrom` (on the edge of what is left out) to fully at `spotSkinFull` (about a millimetre
   * inside). A dip on that edge is the edge of a strand of hair, a brow, a beard's dot or a shadow, half
   * kept as skin, or of a zone, whose outline follows the landmarks: not a spot on the skin. It came and
   * went with every re-capture (which pixels pass the test moves with them) and, on a darker version of
   * a face, as more of the hair passed the test (docs/skin-analysis.md § What changed in `skin-9`).
   */
  spotSkinMm: 1,
  spotSkinFrom: 0.5,
  spotSkinFull: 0.8,
  /**
   * The spots' surroundings leave out only pixels this much brighter than theirs (over
   * `shineContextMm`): a real highlight. At `shineCandidate` (1.08) half a cheek of a darker, strongly
   * modelled face was "bright", so the surroundings read dark there and the spots in it were never
   * looked for.
   */
  spotHighlight: 1.25,
  /**
   * Texture reads L* with each spot filled up to its surroundings within this distance of the spot's
   * centre: a spot is unevenness, not grain. (Unfilled, sixteen 2 mm spots raised a cheek's texture by
   * 7–12. Leaving the skin near spots out instead, as `skin-3` did, left too little of a spotted zone to
   * read, and its fallback read the spots.)
   */
  textureSpotFillMm: 1.5,
  /** Texture fills the spots from this strength (half: a faint spot left unfilled reads as grain). */
  textureFillFrom: 0.5,
  /**
   * Dips that stand out less than a spot, but more than `textureDipSignificance` × the relief around
   * them, are not counted as spots but filled for texture within `textureDipFillMm` (less than a spot's
   * reach, so the relief around them keeps its dark half): a spot among others on a light face's cheek can
   * fall short of `spotSignificance`, and unfilled it raised the cheek's texture by 8, over its floor.
   */
  textureDipSignificance: 2,
  textureDipFillMm: 1,
  /**
   * Shine: a highlight is light added to the skin. Its strength is the luminance Y above the zone's own
   * skin (its median: robust to a highlight over a part of the zone, and a slope of light across a zone
   * is small against the thresholds), divided by Y^`shineExponent` of that skin: nearly the light
   * added itself, which is the same on every complexion for the same highlight (a ratio read it 6 ×
   * stronger on skin of L* 35 than of L* 80), following exposure to the power 0.9. Counted from
   * `shineFrom`, by (lift − `shineFrom`) / (`shineFull` − `shineFrom`) up to `shineCap`: a stronger
   * highlight over one already there still adds. No test of colour: how much whiter a highlight makes
   * the skin depends on the skin's own lightness (far more on dark skin), so a whiteness test was unfair
   * across tones, and on light skin the lit part of a nose is often more colourful than the zone's median
   * (docs/skin-analysis.md § What changed in `skin-5`).
   * Pixels brighter than `shineCandidate` × their surroundings (over `shineContextMm`) are left out of the
   * texture (and those brighter than `spotHighlight` × theirs, of the spots' surroundings).
   */
  shineContextMm: 5,
  shineCandidate: 1.08,
  shineFrom: 0.13,
  shineFull: 0.33,
  shineCap: 2,
  shineExponent: 0.1,
  /** Each unit of shining share adds this many units to the shine score (a third of the zone at full = 100). */
  shineWeight: 3,
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
   * Dark circles: how many L* the under-eye is darker than the cheeks; score = 50 + `darkCirclesPerL` ×
   * ΔL*, so 50 is "as light as the cheeks", higher is darker, lower is lighter, and the scale (±18 L*)
   * leaves room on both sides: a darker under-eye always reads, from any start. In L* units, so the
   * same darkening reads the same on every complexion. The under-eye's L* is the mean of its values from
   * the `darkCirclesFrom` to the `darkCirclesTo` quantile — its lighter half, glints left out: the lower
   * lid's rim and lashes along the zone's top edge are darker than any under-eye skin, and with the
   * median they made the tuning faces' readings span 48 → 99 (a quantile alone, the 75th, followed the
   * landmarks' jitter on a steep shadow: floor 10.4 against 7.6).
   */
  darkCirclesPerL: 2.75,
  darkCirclesFrom: 0.5,
  darkCirclesTo: 0.95,
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

/** The mean of the values between the `from` and `to` quantiles (sorts `values` in place); NaN when empty. */
export function trimmedMean(values: Float32Array, from: number, to: number): number {
  if (values.length === 0) return NaN;
  values.sort();
  const first = Math.min(values.length - 1, Math.floor(values.length * from));
  const end = Math.max(first + 1, Math.min(values.length, Math.floor(values.length * to)));
  let sum = 0;
  for (let i = first; i < end; i++) sum += values[i]!;
  return sum / (end - first);
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
  const { skin } = keepSkinAndDiffuse(lab, mask, reference);
  if (union) for (let i = 0; i < skin.length; i++) union[i] = union[i]! | skin[i]!;
  return skin;
}

/**
 * The skin test without its exception for highlights: the skin of the face's own colour, which the light
 * falling on the face is read from. A highlight is the lamp's reflection, not that light: on face-073, a
 * darker complexion, the lit cheek's sheen raised that cheek's median by 0.8 stops (docs/skin-analysis.md
 * § What changed in `skin-8`).
 */
export function keepDiffuseSkin(lab: LabImage, mask: Mask, reference: SkinReference): Mask {
  return keepSkinAndDiffuse(lab, mask, reference).diffuse;
}

/** Both of the above in one pass over the pixels: the diffuse skin is the skin less what only its highlights let in. */
export function keepSkinAndDiffuse(lab: LabImage, mask: Mask, reference: SkinReference): { skin: Mask; diffuse: Mask } {
  const t = METRIC_TUNING;
  const skin = new Uint8Array(mask.length);
  const diffuse = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) {
    if (mask[i] === 0) continue;
    const L = lab.L[i]!;
    if (L + 16 < (reference.L + 16) * t.skinMinLightRatio) continue;
    const da = lab.a[i]! - reference.a;
    const closeColour =
      da >= -t.skinMaxLessA && da <= t.skinMaxMoreA && Math.abs(lab.b[i]! - reference.b) <= t.skinMaxDeltaB;
    if (closeColour) {
      skin[i] = 1;
      diffuse[i] = 1;
    } else if (L >= reference.L + t.skinHighlight) skin[i] = 1;
  }
  return { skin, diffuse };
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
  /**
   * Dark spots as evenness counts them: at each spot's centre pixel, its strength (0–1) × how far it
   * stands out of the relief around it (0–1); 0 elsewhere.
   */
  readonly spots: Float32Array;
  /** Linear luminance of the skin (smoothed), for shine. */
  readonly luminance: Float32Array;
  /** Brighter than its surroundings by `shineCandidate`: a highlight, left out of the texture. */
  readonly bright: Uint8Array;
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
  const redRatio = new Float32Array(n);
  const Y = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (skin[i] === 0) continue;
    // a* relative to (L* + 16), which scales alike with exposure: a shadow or a brighter photo of the
    // same skin is not redder.
    redRatio[i] = a[i]! / (fine[i]! + 16);
    Y[i] = luminance(fine[i]!);
  }
  // Highlights, found against their surroundings, are left out of the texture, and clear ones out of the
  // spots' surroundings.
  const [around] = maskedBlurs([Y], skin, width, height, t.shineContextMm * pxPerMm) as [Float32Array];
  const bright = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (skin[i] !== 0 && Y[i]! > around[i]! * t.shineCandidate) bright[i] = 1;
  const highlight = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (skin[i] !== 0 && Y[i]! > around[i]! * t.spotHighlight) highlight[i] = 1;
  const { spots, dips, surround, counted } = darkSpots(lab.L, skin, highlight, width, height, pxPerMm);

  // The texture reads L* with each spot filled: within `textureSpotFillMm` of a spot's centre (of a dip,
  // `textureDipFillMm`), no pixel darker than the spots' surroundings (the grain's brighter half is kept
  // there).
  const textureL = new Float32Array(lab.L);
  for (let i = 0; i < n; i++) {
    const strength = Math.max(spots[i]!, dips[i]!);
    if (strength <= 0 || strength < t.textureFillFrom) continue;
    const fill = (spots[i]! > 0 ? t.textureSpotFillMm : t.textureDipFillMm) * pxPerMm;
    const reach = Math.ceil(fill);
    const x0 = i % width;
    const y0 = (i - x0) / width;
    for (let y = Math.max(0, y0 - reach); y <= Math.min(height - 1, y0 + reach); y++)
      for (let x = Math.max(0, x0 - reach); x <= Math.min(width - 1, x0 + reach); x++) {
        const k = y * width + x;
        if ((x - x0) ** 2 + (y - y0) ** 2 <= fill * fill && surround[k]! > 1)
          textureL[k] = Math.max(textureL[k]!, surround[k]!);
      }
  }
  const [coarse] = maskedBlurs([lab.L], skin, width, height, t.textureCoarseMm * 2 * pxPerMm) as [Float32Array];
  const band = differenceOfGaussians(textureL, width, height, t.textureFineMm * pxPerMm, t.textureCoarseMm * pxPerMm);
  const texture = new Float32Array(n);
  for (let i = 0; i < n; i++) texture[i] = coarse[i]! > 1 ? Math.abs(band[i]!) / coarse[i]! : 0;
  for (let i = 0; i < n; i++) if (bright[i] !== 0) texture[i] = -1;
  return { reference, redRatio, spots: counted, luminance: Y, bright, texture };
}

/** How much darker than its surroundings a pixel is, as a ratio of L* + 16 (see METRIC_TUNING.spotCentreMm). */
const spotDepth = (L: number, surround: number) => 1 - (L + 16) / (surround + 16);

/**
 * Dark spots: local minima of the centre–surround ratio of L* (see METRIC_TUNING.spotCentreMm) on the
 * skin, away from highlights, that stand out of the relief around them: `counted`, evenness's count
 * (each minimum's strength, 0–1, by how far it stands out: METRIC_TUNING.spotCountFrom → spotCountFull,
 * and by how much skin surrounds it: spotSkinFrom → spotSkinFull), at its centre pixel. For the
 * texture's filling: `spots`, the strength of those past METRIC_TUNING.spotSignificance, and `dips`, of
 * those that stand out less (from METRIC_TUNING.textureDipSignificance); and the surroundings' L* (0 far
 * from any skin), which the texture reads the spots against.
 */
function darkSpots(
  L: Float32Array,
  skin: Mask,
  bright: Uint8Array,
  width: number,
  height: number,
  pxPerMm: number,
): { spots: Float32Array; dips: Float32Array; surround: Float32Array; counted: Float32Array } {
  const t = METRIC_TUNING;
  const n = width * height;
  const centre = gaussianBlur(L, width, height, t.spotCentreMm * pxPerMm);
  const diffuse = new Uint8Array(n);
  for (let i = 0; i < n; i++) diffuse[i] = skin[i]! & (bright[i]! ^ 1);
  // The surroundings, read twice: the second time without the pixels the first found dark, so that a
  // spot among others (or the dark half of the relief) does not darken its neighbours' surroundings and
  // make them read shallower. Where nothing is left nearby, the first reading stands.
  const sigma = t.spotSurroundMm * pxPerMm;
  const [first] = maskedBlurs([L], diffuse, width, height, sigma) as [Float32Array];
  const light = new Uint8Array(n);
  for (let i = 0; i < n; i++)
    light[i] = diffuse[i] !== 0 && !(first[i]! > 1 && spotDepth(centre[i]!, first[i]!) >= t.spotFrom) ? 1 : 0;
  const [surround] = maskedBlurs([L], light, width, height, sigma) as [Float32Array];
  for (let i = 0; i < n; i++) if (!(surround[i]! > 1)) surround[i] = first[i]!;
  const depth = new Float32Array(n);
  for (let i = 0; i < n; i++) if (diffuse[i] !== 0 && surround[i]! > 1) depth[i] = spotDepth(centre[i]!, surround[i]!);
  const square = new Float32Array(n);
  for (let i = 0; i < n; i++) square[i] = Math.min(depth[i]! ** 2, t.spotNoiseCap ** 2);
  const [spread] = maskedBlurs([square], diffuse, width, height, t.spotNoiseMm * pxPerMm) as [Float32Array];
  // How much of what lies around each pixel is skin the zones hold and the skin test kept (METRIC_TUNING.spotSkinMm).
  const kept = new Float32Array(n);
  for (let i = 0; i < n; i++) kept[i] = skin[i] === 0 ? 0 : 1;
  const skinShare = gaussianBlur(kept, width, height, t.spotSkinMm * pxPerMm);
  const spots = new Float32Array(n);
  const dips = new Float32Array(n);
  const counted = new Float32Array(n);
  const radius = t.spotSeparationMm * pxPerMm;
  const reach = Math.ceil(radius);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const d = depth[i]!;
      if (d < t.spotFrom) continue;
      const relief = Math.sqrt(Math.max(0, spread[i]!));
      const significance = d / relief;
      if (significance < Math.min(t.textureDipSignificance, t.spotCountFrom)) continue;
      let deepest = true;
      for (let yy = Math.max(0, y - reach); yy <= Math.min(height - 1, y + reach) && deepest; yy++)
        for (let xx = Math.max(0, x - reach); xx <= Math.min(width - 1, x + reach); xx++) {
          if ((xx - x) ** 2 + (yy - y) ** 2 > radius * radius) continue;
          const other = depth[yy * width + xx]!;
          // Ties go to the first pixel in reading order, so a flat-bottomed spot is counted once.
          if (other > d || (other === d && yy * width + xx < i)) {
            deepest = false;
            break;
          }
        }
      if (!deepest) continue;
      const strength = ramp(d, t.spotFrom, t.spotFull);
      if (significance >= t.spotSignificance) spots[i] = strength;
      else if (significance >= t.textureDipSignificance) dips[i] = strength;
      counted[i] =
        strength *
        ramp(significance, t.spotCountFrom, t.spotCountFull) *
        ramp(skinShare[i]!, t.spotSkinFrom, t.spotSkinFull);
    }
  return { spots, dips, surround, counted };
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
  /** Dark spots in the zone, each counted by its strength (0–1) and the zone's soft edge weight. */
  readonly spots: number;
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
  const empty = { pixels: 0, redShare: 0, spots: 0, shineShare: 0 };
  if (!box) return { ...empty, textureEnergy: 0, medianL: NaN };
  const weights = softWeights(mask, lab.width, box, sigma);
  const boxWidth = box.x1 - box.x0 + 1;
  // Redness in a* units at the face's lightness: (ratio − the zone's reference ratio) × (L* + 16).
  const redScale = fields.reference.L + 16;
  // Shine against the zone's own skin: its median luminance.
  const skinY = zoneMedian(fields.luminance, mask);
  const shineOf = (i: number) => {
    if (!(skinY > 0)) return 0;
    const lift = (fields.luminance[i]! - skinY) / skinY ** t.shineExponent;
    return Math.min(t.shineCap, Math.max(0, (lift - t.shineFrom) / (t.shineFull - t.shineFrom)));
  };
  let pixels = 0;
  for (let y = box.y0; y <= box.y1; y++)
    for (let i = y * lab.width + box.x0, end = y * lab.width + box.x1; i <= end; i++) if (mask[i] !== 0) pixels++;
  let weight = 0;
  let red = 0;
  let shine = 0;
  let spots = 0;
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
      const w = weights[weightRow + x]!;
      weight += w;
      red += ramp((fields.redRatio[i]! - redReference) * redScale, t.rednessFrom, t.rednessFull) * w;
      shine += shineOf(i) * w;
      spots += fields.spots[i]! * w;
      if (fields.texture[i]! >= 0) energies[bare++] = fields.texture[i]!;
    }
  }
  return {
    pixels,
    redShare: weight > 0 ? red / weight : 0,
    spots,
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
    if (metric === 'evenness') scores.evenness = toScore(1 - (m.spots * t.evenPerSpot) / 100);
    if (metric === 'shine') scores.shine = toScore(m.shineShare * t.shineWeight);
    if (metric === 'texture') scores.texture = toScore(1 - Math.exp(-m.textureEnergy / t.textureScale));
  }
  return scores;
}

/** Dark circles: how much darker (L*) the under-eye is than the cheeks — signed: 50 when as light. */
export function darkCirclesScore(eyeAreaL: number, cheekL: number): number {
  return toScore((50 + METRIC_TUNING.darkCirclesPerL * (cheekL - eyeAreaL)) / 100);
}
