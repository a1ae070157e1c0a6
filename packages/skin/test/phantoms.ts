// Validation phantoms for the skin analysis (docs/skin-analysis.md). Imaging devices are validated
// with phantoms: a known physical change, placed where it belongs, at several doses. These functions
// make such changes to a real face photo — redness, dark spots, a specular highlight, fine texture,
// darker under-eyes, a darker or lighter complexion — placed by the pipeline's OWN zone masks and
// blended so they look like skin; and the photo-wide changes a re-capture brings (exposure, white
// balance, JPEG, resizing, a mirror, a tilt, a slope of light, sensor noise), which no metric should
// follow. Every function returns a new image (the input is never written) and is deterministic: any
// randomness comes from a seed.
//
// Rounding: the photo-wide changes round to the nearest code; the edits in CIELAB round up or down at
// random (seeded), so that a zone's mean change is the dose (see `editLab`). Nothing here writes
// `value + 0.5` into a Uint8ClampedArray, as variants.ts and image.ts do: the array rounds to the
// nearest itself (ties to even), so that lifts every result by half a code on average.

import { ZONE_IDS, type DetectedFace, type RgbaImage, type ZoneId } from '../src/contract.ts';
import {
  imageToLab,
  labToXyz,
  linearToSrgb,
  linearToSrgb8,
  srgb8ToLab,
  SRGB8_TO_LINEAR,
  xyzToLinearRgb,
} from '../src/colour.ts';
import { differenceOfGaussians, gaussianBlur } from '../src/filters.ts';
import { applyAffine } from '../src/image.ts';
import { dilateMask, polygonMask, type Mask } from '../src/mask.ts';
import { keepSkin, METRIC_TUNING, skinReference } from '../src/metrics.ts';
import {
  CROP_MARGIN_MM,
  cropPixels,
  faceCrop,
  faceOvalMask,
  faceScale,
  LEFT_EYE,
  RIGHT_EYE,
  zoneMasks,
  type FaceCrop,
} from '../src/zones.ts';
import { decodeImage, encodeJpeg } from './images.ts';
import { seededRandom, transformImage } from './variants.ts';

/** The weights are built on the upright face crop at the analysis's own scale (analyse.ts ANALYSIS_PX_PER_MM). */
const CROP_PX_PER_MM = 2;

/** Pixels per millimetre on the face in the photo itself (the iris scale, zones.ts `faceScale`). */
export function sourcePxPerMm(face: DetectedFace): number {
  return faceScale(face);
}

// ---------------------------------------------------------------------------------------------------
// 1. Zone weights in the photo's pixels

export interface WeightOptions {
  /** σ of the Gaussian that softens the zone's edge, in mm (default 0.7). */
  readonly featherMm?: number;
  /** Keep only the pixels the pipeline's skin test keeps (hair, brows, beard, deep shadow left out). */
  readonly skinOnly?: boolean;
}

/** The face crop, its zone masks, and (on demand) its pixels in CIELAB, as analyse.ts `prepare` makes them. */
interface CropContext {
  readonly crop: FaceCrop;
  readonly masks: Record<ZoneId, Mask>;
}

function cropContext(face: DetectedFace): CropContext {
  const crop = faceCrop(face, CROP_PX_PER_MM);
  return { crop, masks: zoneMasks(crop) };
}

/**
 * The pipeline's skin test over `area` (crop pixels): the crop's pixels in CIELAB, cut as analyse.ts
 * `prepare` cuts them (a much larger photo halved first), the reference the medians over all zones,
 * then `keepSkin`. Unit gains: no grey-world correction (the reference moves with the pixels, so the
 * test barely depends on it).
 */
function skinIn(image: RgbaImage, context: CropContext, area: Mask): Mask {
  const { lab, reference } = cropLab(image, context);
  return keepSkin(lab, area, reference);
}

/** The crop in CIELAB (see skinIn) and the skin reference over all zones. */
function cropLab(image: RgbaImage, { crop, masks }: CropContext) {
  const lab = imageToLab(cropPixels(image, crop));
  const zones = unionOf(
    ZONE_IDS.map((zone) => masks[zone]),
    crop.width * crop.height,
  );
  return { lab, reference: skinReference(lab, zones) };
}

/**
 * The pipeline's skin test's lightness cut alone over `area`: what is not as dark as hair, brow or deep
 * shadow, whatever its colour.
 */
function notDarkIn({ lab, reference }: ReturnType<typeof cropLab>, area: Mask): Mask {
  const out = new Uint8Array(area.length);
  for (let i = 0; i < area.length; i++)
    if (area[i] !== 0 && lab.L[i]! + 16 >= (reference.L + 16) * METRIC_TUNING.skinMinLightRatio) out[i] = 1;
  return out;
}

function unionOf(masks: readonly Mask[], length: number): Mask {
  const out = new Uint8Array(length);
  for (const mask of masks) for (let i = 0; i < length; i++) out[i] = out[i]! | mask[i]!;
  return out;
}

/** A mask softened by a Gaussian of σ `sigma` crop pixels, as weights 0–1 (exactly 0 beyond the kernel's reach). */
function feather(mask: Mask, width: number, height: number, sigma: number): Float32Array {
  const plane = new Float32Array(mask.length);
  for (let i = 0; i < mask.length; i++) plane[i] = mask[i] === 0 ? 0 : 1;
  const soft = gaussianBlur(plane, width, height, sigma);
  // The kernel sums to 1 only to float precision: deep inside is exactly 1.
  for (let i = 0; i < soft.length; i++) soft[i] = soft[i]! > 0.99999 ? 1 : soft[i]! < 1e-6 ? 0 : soft[i]!;
  return soft;
}

/**
 * Crop weights → one weight per source pixel: each source pixel inside the crop's footprint is mapped
 * to the crop (`fromSource`) and the weights are sampled bilinearly there (0 beyond the crop).
 */
function toSourceWeights(image: RgbaImage, crop: FaceCrop, weights: Float32Array): Float32Array {
  const out = new Float32Array(image.width * image.height);
  const { width, height } = crop;
  // The footprint of the crop's non-zero weights, in source pixels.
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      if (weights[y * width + x] === 0) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      y1 = y;
    }
  if (x1 < 0) return out;
  const corners = [
    applyAffine(crop.toSource, [x0 - 1, y0 - 1]),
    applyAffine(crop.toSource, [x1 + 2, y0 - 1]),
    applyAffine(crop.toSource, [x0 - 1, y1 + 2]),
    applyAffine(crop.toSource, [x1 + 2, y1 + 2]),
  ];
  const sx0 = Math.max(0, Math.floor(Math.min(...corners.map((p) => p[0]))));
  const sx1 = Math.min(image.width - 1, Math.ceil(Math.max(...corners.map((p) => p[0]))));
  const sy0 = Math.max(0, Math.floor(Math.min(...corners.map((p) => p[1]))));
  const sy1 = Math.min(image.height - 1, Math.ceil(Math.max(...corners.map((p) => p[1]))));
  const at = (x: number, y: number) => (x < 0 || y < 0 || x >= width || y >= height ? 0 : weights[y * width + x]!);
  const t = crop.fromSource;
  for (let y = sy0; y <= sy1; y++)
    for (let x = sx0; x <= sx1; x++) {
      // Pixel centres at +0.5 on both sides (image.ts resampleAffine's convention).
      const u = t.a * (x + 0.5) + t.b * (y + 0.5) + t.c - 0.5;
      const v = t.d * (x + 0.5) + t.e * (y + 0.5) + t.f - 0.5;
      const cx = Math.floor(u);
      const cy = Math.floor(v);
      const fx = u - cx;
      const fy = v - cy;
      const top = at(cx, cy) + (at(cx + 1, cy) - at(cx, cy)) * fx;
      const bottom = at(cx, cy + 1) + (at(cx + 1, cy + 1) - at(cx, cy + 1)) * fx;
      const value = top + (bottom - top) * fy;
      if (value > 0) out[y * image.width + x] = value > 1 ? 1 : value;
    }
  return out;
}

/**
 * One weight 0–1 per pixel of the photo: the zone(s) as the pipeline draws them (zones.ts `zoneMasks`
 * on the upright crop at 2 px/mm), optionally only their skin, softened over `featherMm` (σ, default
 * 0.7 mm) and brought back to the photo's pixels. 1 deep inside, exactly 0 beyond the soft edge.
 */
export function zoneWeights(
  image: RgbaImage,
  face: DetectedFace,
  zones: ZoneId | readonly ZoneId[],
  options: WeightOptions = {},
): Float32Array {
  const { featherMm = 0.7, skinOnly = false } = options;
  const context = cropContext(face);
  const { crop, masks } = context;
  const list: readonly ZoneId[] = typeof zones === 'string' ? [zones] : zones;
  let mask = unionOf(
    list.map((zone) => masks[zone]),
    crop.width * crop.height,
  );
  if (skinOnly) mask = skinIn(image, context, mask);
  return toSourceWeights(image, crop, feather(mask, crop.width, crop.height, featherMm * crop.pxPerMm));
}

// ---------------------------------------------------------------------------------------------------
// 2. Edits in CIELAB (doses in CIELAB units), each blended by the zone's weight per pixel

/**
 * The edits act on the zone's skin, as the metrics read it: redness or a spot on a strand of hair over
 * the cheek would be no skin's. (Not the under-eyes: see `darkenUnderEyes`.)
 */
const ZONE_EDIT: WeightOptions = { skinOnly: true };

/**
 * A copy of the image where each pixel of weight > 0 is converted to CIELAB, changed by `change` (which
 * returns the new L*, a*, b*) and converted back to 8 bits. Every other byte is copied as is, alpha
 * included.
 *
 * The way back rounds each channel up or down at random (seeded: floor(code + u), u uniform in [0, 1)),
 * so the mean change over a zone is the dose asked for. Nearest rounding is not: the photo's codes are
 * whole numbers and a zone's skin is nearly one colour, so a dose needs nearly the same fraction of a
 * code at every pixel and rounds the same way everywhere (Δa* +1 on face-sample6-a's left cheek read back
 * +1.36, +2 read back +1.81). The cost is a rounding noise of ≈ 0.4 codes RMS instead of 0.29, within the
 * edited zone only.
 */
function editLab(
  image: RgbaImage,
  weights: Float32Array,
  seed: number,
  change: (L: number, a: number, b: number, w: number, i: number) => readonly [number, number, number],
): RgbaImage {
  const data = image.data.slice();
  const random = seededRandom(seed);
  const toCode = (linear: number) =>
    linear > 0 ? Math.min(255, Math.floor(linearToSrgb(Math.min(1, linear)) * 255 + random())) : 0;
  for (let i = 0, p = 0; i < weights.length; i++, p += 4) {
    const w = weights[i]!;
    if (w === 0) continue;
    const [L, a, b] = srgb8ToLab(data[p]!, data[p + 1]!, data[p + 2]!);
    const [r, g, bl] = xyzToLinearRgb(...labToXyz(...change(L, a, b, w, i)));
    data[p] = toCode(r);
    data[p + 1] = toCode(g);
    data[p + 2] = toCode(bl);
  }
  return { width: image.width, height: image.height, data };
}

/** The seeds of the edits that take none: any fixed number, so every run makes the same phantom. */
const ROUNDING_SEED = 0x5eed;

/** Adds Δa* (the redness dose, e.g. +1 … +8) over the zone's skin, blended by the zone's weight. */
export function addRedness(image: RgbaImage, face: DetectedFace, zone: ZoneId, deltaA: number): RgbaImage {
  const weights = zoneWeights(image, face, zone, ZONE_EDIT);
  return editLab(image, weights, ROUNDING_SEED, (L, a, b, w) => [L, a + w * deltaA, b]);
}

/**
 * Adds ΔL* (negative = darker) over the eye area as drawn: dark circles of a known depth. The whole zone,
 * not only its skin, because that is what the dark-circles score reads (analyse.ts: a dark under-eye
 * must not be taken for shadow and dropped) — and a dark under-eye fails the skin test: on
 * face-sample3-a only 51 % of the eye area passes it, and a skin-only −4 L* moved the score by 2.6
 * instead of 8.5.
 */
export function darkenUnderEyes(image: RgbaImage, face: DetectedFace, deltaL: number): RgbaImage {
  const weights = zoneWeights(image, face, 'eyeArea');
  return editLab(image, weights, ROUNDING_SEED, (L, a, b, w) => [L + w * deltaL, a, b]);
}

export interface SpotOptions {
  /** How many spots to place. */
  readonly count: number;
  /** Each spot's diameter in mm (where the edge is half-way down), e.g. 1.5–3. */
  readonly diameterMm: number;
  /** ΔL* at the spot's centre, e.g. −8 … −15. */
  readonly deltaL: number;
  readonly seed: number;
}

export interface PlacedSpot {
  /** The spot's centre in the photo's coordinates: the centre of pixel (⌊x⌋, ⌊y⌋). */
  readonly x: number;
  readonly y: number;
}

/** A spot's depth at `distance` from its centre (any unit): a flat core, a raised-cosine edge 0.3 × the radius wide, half-way at the radius. */
function spotProfile(distance: number, radius: number): number {
  const edge = 0.3 * radius;
  const inner = radius - edge / 2;
  if (distance <= inner) return 1;
  if (distance >= inner + edge) return 0;
  return 0.5 * (1 + Math.cos((Math.PI * (distance - inner)) / edge));
}

/**
 * `count` round dark spots of `diameterMm` and depth `deltaL` (ΔL* at the centre) at random places on
 * the zone's skin. A pure ΔL*: a real brown spot also moves b* (and a little a*); here a* and b* are
 * kept so the phantom moves lightness alone. Each spot's centre lies at least one diameter inside the
 * zone's skin (every pixel within a diameter of it has weight ≥ 0.5), with weight ≥ 0.99 at the centre
 * and ≥ 0.9 over the whole spot; spots are at least two diameters apart centre to centre (untouched
 * skin between them, so each stays a blob of its own). Candidates are taken in a seeded random order:
 * when the zone cannot hold `count`, as many as fit are placed and `placed` is shorter than `count`.
 */
export function addSpots(
  image: RgbaImage,
  face: DetectedFace,
  zone: ZoneId,
  { count, diameterMm, deltaL, seed }: SpotOptions,
): { image: RgbaImage; placed: PlacedSpot[] } {
  const { width, height } = image;
  const weights = zoneWeights(image, face, zone, ZONE_EDIT);
  const pxPerMm = sourcePxPerMm(face);
  const radius = (diameterMm / 2) * pxPerMm;
  const outer = radius * 1.15;
  const diameter = 2 * radius;
  const spacing = 2 * diameter;
  /** Every pixel within `reach` of (cx, cy) has a weight ≥ `least` (outside the photo: 0). */
  const allAtLeast = (cx: number, cy: number, reach: number, least: number) => {
    const r = Math.ceil(reach);
    for (let dy = -r; dy <= r; dy++)
      for (let dx = -r; dx <= r; dx++) {
        if (dx * dx + dy * dy > reach * reach) continue;
        const x = cx + dx;
        const y = cy + dy;
        if (x < 0 || y < 0 || x >= width || y >= height || weights[y * width + x]! < least) return false;
      }
    return true;
  };
  const candidates: number[] = [];
  for (let i = 0; i < weights.length; i++) {
    if (weights[i]! < 0.99) continue;
    const x = i % width;
    const y = (i - x) / width;
    if (allAtLeast(x, y, outer, 0.9) && allAtLeast(x, y, diameter, 0.5)) candidates.push(i);
  }
  // A seeded shuffle, then first come first placed (random sequential placement).
  const random = seededRandom(seed);
  for (let k = candidates.length - 1; k > 0; k--) {
    const j = Math.floor(random() * (k + 1));
    [candidates[k], candidates[j]] = [candidates[j]!, candidates[k]!];
  }
  const centres: [number, number][] = [];
  for (const i of candidates) {
    if (centres.length >= count) break;
    const x = i % width;
    const y = (i - x) / width;
    if (centres.some(([px, py]) => Math.hypot(px - x, py - y) < spacing)) continue;
    centres.push([x, y]);
  }
  // Each pixel takes the profile's mean over its area (4 × 4 points), as a sensor's pixel integrates
  // the light: at 1.5–2 px/mm a spot is 3 pixels wide, and point samples would draw it as a square.
  const depth = new Float32Array(weights.length);
  const SUB = 4;
  for (const [cx, cy] of centres) {
    const r = Math.ceil(outer) + 1;
    for (let y = Math.max(0, cy - r); y <= Math.min(height - 1, cy + r); y++)
      for (let x = Math.max(0, cx - r); x <= Math.min(width - 1, cx + r); x++) {
        let sum = 0;
        for (let sy = 0; sy < SUB; sy++)
          for (let sx = 0; sx < SUB; sx++)
            sum += spotProfile(Math.hypot(x - cx + (sx + 0.5) / SUB - 0.5, y - cy + (sy + 0.5) / SUB - 0.5), radius);
        depth[y * width + x]! += sum / (SUB * SUB);
      }
  }
  const spotted = new Float32Array(weights.length);
  for (let i = 0; i < spotted.length; i++) spotted[i] = depth[i]! * weights[i]!;
  return {
    image: editLab(image, spotted, seed, (L, a, b, w) => [L + w * deltaL, a, b]),
    placed: centres.map(([x, y]) => ({ x: x + 0.5, y: y + 0.5 })),
  };
}

export interface HighlightOptions {
  /** The share of the zone's skin the highlight's core covers (e.g. 0.05 … 0.3). */
  readonly share: number;
  /** Light added at the core, as a share of full linear scale (default 0.25). */
  readonly strength?: number;
}

/** The highlight's profile at elliptical radius ρ: 1 at the centre, 0.5 at ρ = 1 (the core's edge), 0 from ρ = 2. */
function highlightProfile(rho: number): number {
  return rho >= 2 ? 0 : 0.5 * (1 + Math.cos((Math.PI * rho) / 2));
}

/**
 * A specular highlight over `share` of the zone's skin: light is added, and white, so `strength` ×
 * a soft blob is added to linear R, G and B alike (then clipped at white). The blob is an ellipse on
 * the upright face's axes, centred on the zone's skin centroid, with the zone's own proportions (its
 * skin's spread along each axis: the nose's along the bridge, the forehead's across it); it grows
 * until its core (profile ≥ 0.5, after the zone's weight) covers `share` of the zone's skin, and is
 * blended by the zone's weight. `coveredShare` is measured on the result: the share of the zone's skin
 * (weight ≥ 0.5) whose linear light rose by at least half of `strength`. (The eye area and the lip
 * contour are a pair and a ring: their centroid lies outside them, and the blob covers their parts
 * nearest it. The pipeline measures no shine there.)
 */
export function addHighlight(
  image: RgbaImage,
  face: DetectedFace,
  zone: ZoneId,
  { share, strength = 0.25 }: HighlightOptions,
): { image: RgbaImage; coveredShare: number } {
  const { width } = image;
  const weights = zoneWeights(image, face, zone, ZONE_EDIT);
  const skin: number[] = [];
  for (let i = 0; i < weights.length; i++) if (weights[i]! >= 0.5) skin.push(i);
  if (skin.length === 0) return { image: { width, height: image.height, data: image.data.slice() }, coveredShare: 0 };
  // The upright face's axes in the photo: the crop's x (across the face) and y (down the face).
  const t = faceCrop(face, CROP_PX_PER_MM).toSource;
  const across = Math.hypot(t.a, t.d);
  const [ux, uy, vx, vy] = [t.a / across, t.d / across, t.b / across, t.e / across];
  let mx = 0;
  let my = 0;
  for (const i of skin) {
    mx += (i % width) + 0.5;
    my += Math.floor(i / width) + 0.5;
  }
  mx /= skin.length;
  my /= skin.length;
  const us = new Float32Array(skin.length);
  const vs = new Float32Array(skin.length);
  let su = 0;
  let sv = 0;
  skin.forEach((i, k) => {
    const dx = (i % width) + 0.5 - mx;
    const dy = Math.floor(i / width) + 0.5 - my;
    us[k] = dx * ux + dy * uy;
    vs[k] = dx * vx + dy * vy;
    su += us[k]! ** 2;
    sv += vs[k]! ** 2;
  });
  su = Math.sqrt(su / skin.length);
  sv = Math.sqrt(sv / skin.length);
  const covered = (scale: number) => {
    let n = 0;
    for (let k = 0; k < skin.length; k++) {
      const rho = Math.hypot(us[k]! / (scale * su), vs[k]! / (scale * sv));
      if (highlightProfile(rho) * weights[skin[k]!]! >= 0.5) n++;
    }
    return n / skin.length;
  };
  // Grow the ellipse (bisection on its scale: the covered share only grows with it).
  let low = 0;
  let high = 1;
  while (covered(high) < share && high < 64) high *= 2;
  for (let step = 0; step < 40; step++) {
    const mid = (low + high) / 2;
    if (covered(mid) < share) low = mid;
    else high = mid;
  }
  const scale = high;
  const data = image.data.slice();
  const reach = 2 * scale * Math.max(su, sv);
  const x0 = Math.max(0, Math.floor(mx - reach));
  const x1 = Math.min(width - 1, Math.ceil(mx + reach));
  const y0 = Math.max(0, Math.floor(my - reach));
  const y1 = Math.min(image.height - 1, Math.ceil(my + reach));
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      const i = y * width + x;
      if (weights[i] === 0) continue;
      const dx = x + 0.5 - mx;
      const dy = y + 0.5 - my;
      const rho = Math.hypot((dx * ux + dy * uy) / (scale * su), (dx * vx + dy * vy) / (scale * sv));
      const added = strength * highlightProfile(rho) * weights[i]!;
      if (added === 0) continue;
      for (let c = 0; c < 3; c++) data[i * 4 + c] = linearToSrgb8(SRGB8_TO_LINEAR[data[i * 4 + c]!]! + added);
    }
  let lifted = 0;
  for (const i of skin) {
    let rise = 0;
    for (let c = 0; c < 3; c++) rise += SRGB8_TO_LINEAR[data[i * 4 + c]!]! - SRGB8_TO_LINEAR[image.data[i * 4 + c]!]!;
    if (rise / 3 >= strength / 2) lifted++;
  }
  return { image: { width, height: image.height, data }, coveredShare: lifted / skin.length };
}

/** Standard normal numbers from a seed (Box–Muller on `seededRandom`, both values of each pair used). */
function gaussianNumbers(seed: number): () => number {
  const random = seededRandom(seed);
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const value = spare;
      spare = null;
      return value;
    }
    const radius = Math.sqrt(-2 * Math.log(1 - random()));
    const angle = 2 * Math.PI * random();
    spare = radius * Math.sin(angle);
    return radius * Math.cos(angle);
  };
}

/**
 * Fine texture: Gaussian white noise band-passed as a difference of Gaussians between 0.5 mm and 2 mm
 * — relief at the millimetre scale, the band the texture score reads (metrics.ts METRIC_TUNING) — at
 * the photo's own pixels per mm, scaled so its RMS over the zone's skin is `amplitude` L* units (e.g.
 * 0.5 … 4), added to L* with the zone's weight.
 */
export function addTexture(
  image: RgbaImage,
  face: DetectedFace,
  zone: ZoneId,
  amplitude: number,
  seed: number,
): RgbaImage {
  const { width, height } = image;
  const weights = zoneWeights(image, face, zone, ZONE_EDIT);
  const pxPerMm = sourcePxPerMm(face);
  // The noise is drawn over the zone's box plus the coarse Gaussian's reach, so the zone is clear of the box's edges.
  const margin = Math.ceil(6 * pxPerMm) + 2;
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  for (let i = 0; i < weights.length; i++) {
    if (weights[i] === 0) continue;
    const x = i % width;
    const y = (i - x) / width;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    y1 = y;
  }
  if (x1 < 0) return { width, height, data: image.data.slice() };
  x0 = Math.max(0, x0 - margin);
  y0 = Math.max(0, y0 - margin);
  x1 = Math.min(width - 1, x1 + margin);
  y1 = Math.min(height - 1, y1 + margin);
  const bw = x1 - x0 + 1;
  const bh = y1 - y0 + 1;
  const gauss = gaussianNumbers(seed);
  const white = new Float32Array(bw * bh);
  for (let k = 0; k < white.length; k++) white[k] = gauss();
  const band = differenceOfGaussians(white, bw, bh, 0.5 * pxPerMm, 2 * pxPerMm);
  const field = new Float32Array(weights.length);
  let sum = 0;
  let n = 0;
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      const value = band[(y - y0) * bw + (x - x0)]!;
      field[y * width + x] = value;
      if (weights[y * width + x]! >= 0.5) {
        sum += value * value;
        n++;
      }
    }
  const gain = n > 0 && sum > 0 ? amplitude / Math.sqrt(sum / n) : 0;
  return editLab(image, weights, seed, (L, a, b, w, i) => [L + w * gain * field[i]!, a, b]);
}

// ---------------------------------------------------------------------------------------------------
// Skin tone: a SIMULATION of a darker or lighter complexion on the same face. It moves L* alone on the
// face's skin; a real complexion differs in more than lightness (melanin changes chroma and hue a
// little, and light reflects differently from darker skin), so it checks that the gates and metrics
// do not lean on lightness — never a substitute for photos of real people of every skin tone.

/** `mask` with its enclosed holes filled: the unset pixels that no 4-connected path of unset pixels joins to the border. */
function fillHoles(mask: Mask, width: number, height: number): Mask {
  const outside = new Uint8Array(mask.length);
  const stack: number[] = [];
  const reach = (i: number) => {
    if (mask[i] !== 0 || outside[i] !== 0) return;
    outside[i] = 1;
    stack.push(i);
  };
  for (let x = 0; x < width; x++) {
    reach(x);
    reach((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    reach(y * width);
    reach(y * width + width - 1);
  }
  while (stack.length > 0) {
    const i = stack.pop()!;
    const x = i % width;
    if (x > 0) reach(i - 1);
    if (x < width - 1) reach(i + 1);
    if (i >= width) reach(i - width);
    if (i + width < mask.length) reach(i + width);
  }
  const out = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) out[i] = outside[i] === 0 ? 1 : 0;
  return out;
}

/**
 * The face's skin as weights per photo pixel, for the skin-tone simulation, feathered over 1.5 mm: in
 * the zones and the face oval, whatever is not as dark as hair or deep shadow, of any colour; in a ring
 * of 3 mm around the oval — the margin the analysis's crop keeps around the landmarks —, what passes
 * the pipeline's skin test. Of any colour, because skin the colour test leaves out is still skin (a
 * shaded cheek under a warm cast): left as it was, it stayed light beside the darkened skin, and the
 * darker version's skin test, whose "highlight" is anything 8 L* brighter than the skin, took it in. And
 * the ring, because the skin just beyond the oval — the neck under the jaw — is in the crop the texture
 * reads: left as it was, it made an edge with the darkened chin that no real darker complexion has.
 * (Before both, face-sample6-b's chin texture rose from 64 to 83 at ×0.55, and face-sample3-a's right
 * cheek's from 40 to 56; docs/skin-analysis.md § Limits.) With two
 * changes, so that every zone's skin takes the whole change (a partial one would be read by the metrics
 * as unevenness, or as dark circles). The mask's enclosed holes are filled: brows, nostrils, lips and
 * small shadows darken with the face, and hair or background that reach in from outside stay out. And
 * the feather lies outside the mask (min(1, 2 × the blurred mask): 1 on the mask, falling to 0 within
 * ≈ 2.5σ beyond it) rather than across its edge: across it, 10–35 % of a zone's skin on face-sample6-a
 * was changed less than the rest. The eye openings are held at 0: the sclera passes the skin test as a
 * "highlight", and a darker complexion does not darken the eyes' whites. The oval is the mesh's, whose
 * top lies below the hairline: the forehead above it keeps its tone (no zone reaches there).
 */
export function faceSkinWeights(image: RgbaImage, face: DetectedFace): Float32Array {
  const context = cropContext(face);
  const { crop, masks } = context;
  const { width, height } = crop;
  const oval = faceOvalMask(crop);
  const inner = unionOf([oval, ...ZONE_IDS.map((zone) => masks[zone])], width * height);
  const ring = dilateMask(oval, width, height, CROP_MARGIN_MM * crop.pxPerMm);
  for (let i = 0; i < ring.length; i++) ring[i] = ring[i]! & (inner[i]! ^ 1);
  const eyes = polygonMask(width, height, [RIGHT_EYE.map((i) => crop.mesh[i]!), LEFT_EYE.map((i) => crop.mesh[i]!)]);
  const pixels = cropLab(image, context);
  const skin = fillHoles(
    unionOf([notDarkIn(pixels, inner), keepSkin(pixels.lab, ring, pixels.reference), eyes], width * height),
    width,
    height,
  );
  const soft = feather(skin, width, height, 1.5 * crop.pxPerMm);
  for (let i = 0; i < soft.length; i++) soft[i] = eyes[i] !== 0 ? 0 : Math.min(1, 2 * soft[i]!);
  return toSourceWeights(image, crop, soft);
}

/** Whether CIELAB (L, a, b) lies inside the sRGB gamut (a little round-off allowed). */
function inGamut(L: number, a: number, b: number): boolean {
  const rgb = xyzToLinearRgb(...labToXyz(L, a, b));
  return rgb.every((value) => value >= -1e-4 && value <= 1 + 1e-4);
}

/**
 * L* → `lightness(L*)` on the face's skin, blended by `faceSkinWeights`, a* and b* kept. Where the
 * result leaves the sRGB gamut (a colourful pixel made very dark), the chroma alone is reduced until it
 * fits, so the hue is kept rather than bent by clipping each channel.
 */
function mapSkinLightness(image: RgbaImage, face: DetectedFace, lightness: (L: number) => number): RgbaImage {
  return editLab(image, faceSkinWeights(image, face), ROUNDING_SEED, (L, a, b, w) => {
    const target = L + w * (lightness(L) - L);
    if (inGamut(target, a, b)) return [target, a, b];
    let low = 0;
    let high = 1;
    for (let step = 0; step < 20; step++) {
      const mid = (low + high) / 2;
      if (inGamut(target, a * mid, b * mid)) low = mid;
      else high = mid;
    }
    return [target, a * low, b * low];
  });
}

/** SIMULATION of a darker complexion: L* → `factor` × L* on the face's skin (0.7, 0.55), hue and chroma kept. */
export function scaleSkinLightness(image: RgbaImage, face: DetectedFace, factor: number): RgbaImage {
  return mapSkinLightness(image, face, (L) => factor * L);
}

/** SIMULATION of a lighter complexion: L* → 100 − (100 − L*) × 0.7 on the face's skin, hue and chroma kept. */
export function lighterSkin(image: RgbaImage, face: DetectedFace): RgbaImage {
  return mapSkinLightness(image, face, (L) => 100 - (100 - L) * 0.7);
}

// ---------------------------------------------------------------------------------------------------
// 3. The invariance set: photo-wide changes a re-capture brings, no face needed.

/** Each channel's linear value × `gain(x, y, channel)`, back to the nearest 8-bit code (clipped at white). */
function mapLinear(image: RgbaImage, gain: (x: number, y: number, channel: number) => number): RgbaImage {
  const { width, height } = image;
  const data = image.data.slice();
  for (let y = 0; y < height; y++)
    for (let x = 0, p = y * width * 4; x < width; x++, p += 4)
      for (let c = 0; c < 3; c++) data[p + c] = linearToSrgb8(SRGB8_TO_LINEAR[data[p + c]!]! * gain(x, y, c));
  return { width, height, data };
}

/** Exposure: linear light × `factor` (0.8, 0.9, 1.1, 1.2), clipped at white. */
export function exposeLinear(image: RgbaImage, factor: number): RgbaImage {
  return mapLinear(image, () => factor);
}

/** White balance: linear R, G, B × `gains` (a mild shift, e.g. [1.06, 1, 0.94] warmer). */
export function whiteBalance(image: RgbaImage, gains: readonly [number, number, number]): RgbaImage {
  return mapLinear(image, (_x, _y, c) => gains[c]!);
}

/**
 * Light that slopes across the photo: linear light × a ramp from 1 − `amount` to 1 + `amount`, top to
 * bottom ('vertical') or left to right ('horizontal'), read at each pixel's centre.
 */
export function lightGradient(image: RgbaImage, direction: 'vertical' | 'horizontal', amount: number): RgbaImage {
  const { width, height } = image;
  return mapLinear(image, (x, y) =>
    direction === 'vertical' ? 1 + amount * (2 * ((y + 0.5) / height) - 1) : 1 + amount * (2 * ((x + 0.5) / width) - 1),
  );
}

const clampCode = (value: number) => (value <= 0 ? 0 : value >= 255 ? 255 : Math.round(value));

/**
 * A JPEG at `quality` with 4:2:0 chroma, as phones write them. The installed encoder (jpeg-js, behind
 * images.ts `encodeJpeg`) writes 4:4:4 only, so the subsampling is simulated first: RGB → YCbCr (JFIF:
 * BT.601, full range), Cb and Cr averaged over 2 × 2 blocks, spread back bilinearly (libjpeg's "fancy"
 * upsampling is triangular, which bilinear is close to), back to RGB; then encoded and decoded.
 */
export function jpeg420(image: RgbaImage, quality: number): RgbaImage {
  const { width, height } = image;
  const n = width * height;
  const Y = new Float32Array(n);
  const cb = new Float32Array(n);
  const cr = new Float32Array(n);
  for (let i = 0, p = 0; i < n; i++, p += 4) {
    const r = image.data[p]!;
    const g = image.data[p + 1]!;
    const b = image.data[p + 2]!;
    Y[i] = 0.299 * r + 0.587 * g + 0.114 * b;
    cb[i] = -0.168736 * r - 0.331264 * g + 0.5 * b;
    cr[i] = 0.5 * r - 0.418688 * g - 0.081312 * b;
  }
  const cbFull = upsampleBilinear(downsampleArea(cb, width, height, 2), width, height, 2, 2);
  const crFull = upsampleBilinear(downsampleArea(cr, width, height, 2), width, height, 2, 2);
  const data = new Uint8ClampedArray(n * 4);
  for (let i = 0, p = 0; i < n; i++, p += 4) {
    data[p] = clampCode(Y[i]! + 1.402 * crFull[i]!);
    data[p + 1] = clampCode(Y[i]! - 0.344136 * cbFull[i]! - 0.714136 * crFull[i]!);
    data[p + 2] = clampCode(Y[i]! + 1.772 * cbFull[i]!);
    data[p + 3] = image.data[p + 3]!;
  }
  return decodeImage(encodeJpeg({ width, height, data }, quality), 'phantom.jpg');
}

/** One channel as floats. */
interface Plane {
  readonly width: number;
  readonly height: number;
  readonly values: Float32Array;
}

/** Averages over blocks of `times` × `times` pixels (a partial block at the edge averages what it holds). */
function downsampleArea(values: Float32Array, width: number, height: number, times: number): Plane {
  return resizeArea({ width, height, values }, Math.ceil(width / times), Math.ceil(height / times), times, times);
}

/**
 * Area-average (box filter) resize to `outWidth` × `outHeight`: output pixel (x, y) is the mean of the
 * source area [x·stepX, (x + 1)·stepX) × [y·stepY, (y + 1)·stepY) (within the source), partial pixels
 * weighted by their overlap.
 */
function resizeArea(
  plane: Plane,
  outWidth: number,
  outHeight: number,
  stepX = plane.width / outWidth,
  stepY = plane.height / outHeight,
): Plane {
  const { width, height, values } = plane;
  /** For each output index, the source indices it covers and their weights (summing to 1). */
  const spans = (outSize: number, inSize: number, step: number) =>
    Array.from({ length: outSize }, (_, o) => {
      const from = o * step;
      const to = Math.min(inSize, (o + 1) * step);
      const parts: [number, number][] = [];
      for (let i = Math.floor(from); i < to; i++) {
        const overlap = Math.min(to, i + 1) - Math.max(from, i);
        if (overlap > 0) parts.push([i, overlap]);
      }
      const total = parts.reduce((sum, [, w]) => sum + w, 0);
      return parts.map(([i, w]): [number, number] => [i, w / total]);
    });
  const columns = spans(outWidth, width, stepX);
  const rows = new Float32Array(outWidth * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < outWidth; x++) {
      let sum = 0;
      for (const [i, w] of columns[x]!) sum += values[y * width + i]! * w;
      rows[y * outWidth + x] = sum;
    }
  const out = new Float32Array(outWidth * outHeight);
  const lines = spans(outHeight, height, stepY);
  for (let y = 0; y < outHeight; y++)
    for (const [j, w] of lines[y]!)
      for (let x = 0; x < outWidth; x++) out[y * outWidth + x]! += rows[j * outWidth + x]! * w;
  return { width: outWidth, height: outHeight, values: out };
}

/**
 * A plane made by `resizeArea` enlarged back to `width` × `height` bilinearly: small pixel o is centred
 * on (o + 0.5)·step in the large one's coordinates (between the pixels it averaged); edges clamped.
 */
function upsampleBilinear(plane: Plane, width: number, height: number, stepX: number, stepY: number): Float32Array {
  const { width: sw, height: sh, values } = plane;
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const fy = Math.min(sh - 1, Math.max(0, (y + 0.5) / stepY - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(sh - 1, y0 + 1);
    const ty = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(sw - 1, Math.max(0, (x + 0.5) / stepX - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(sw - 1, x0 + 1);
      const tx = fx - x0;
      const top = values[y0 * sw + x0]! + (values[y0 * sw + x1]! - values[y0 * sw + x0]!) * tx;
      const bottom = values[y1 * sw + x0]! + (values[y1 * sw + x1]! - values[y1 * sw + x0]!) * tx;
      out[y * width + x] = top + (bottom - top) * ty;
    }
  }
  return out;
}

/**
 * Resized to `factor` (e.g. 0.5) by area average (a box filter, as a phone's resize does), stored in 8
 * bits, then enlarged back to the original size bilinearly: the detail a smaller upload loses.
 */
export function rescaleRoundTrip(image: RgbaImage, factor: number): RgbaImage {
  const { width, height } = image;
  const smallWidth = Math.max(1, Math.round(width * factor));
  const smallHeight = Math.max(1, Math.round(height * factor));
  const data = image.data.slice();
  const n = width * height;
  for (let c = 0; c < 3; c++) {
    const plane = new Float32Array(n);
    for (let i = 0; i < n; i++) plane[i] = image.data[i * 4 + c]!;
    const small = resizeArea({ width, height, values: plane }, smallWidth, smallHeight);
    for (let i = 0; i < small.values.length; i++) small.values[i] = clampCode(small.values[i]!);
    const back = upsampleBilinear(small, width, height, width / smallWidth, height / smallHeight);
    for (let i = 0; i < n; i++) data[i * 4 + c] = clampCode(back[i]!);
  }
  return { width, height, data };
}

/** The photo mirrored left to right (a selfie not flipped back: the subject's cheeks swap sides). */
export function flipHorizontal(image: RgbaImage): RgbaImage {
  const { width, height } = image;
  const data = new Uint8ClampedArray(image.data.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const from = (y * width + x) * 4;
      data.set(image.data.subarray(from, from + 4), (y * width + (width - 1 - x)) * 4);
    }
  return { width, height, data };
}

/**
 * Rotated by `degrees` about the centre, same size (variants.ts `transformImage`: bilinear, edges
 * repeated; a positive angle turns the content clockwise on screen). Its rounding (image.ts
 * `resampleAffine`) lifts the codes by half a code on average: a rotation also brightens a little.
 */
export function rotate(image: RgbaImage, degrees: number): RgbaImage {
  return transformImage(image, { dx: 0, dy: 0, scale: 1, rotation: degrees });
}

/** Gaussian noise of σ `sigma` (8-bit units) added to each channel on its own, seeded; clipped to 0–255. */
export function sensorNoise(image: RgbaImage, sigma: number, seed: number): RgbaImage {
  const gauss = gaussianNumbers(seed);
  const data = image.data.slice();
  for (let p = 0; p < data.length; p += 4)
    for (let c = 0; c < 3; c++) data[p + c] = clampCode(data[p + c]! + sigma * gauss());
  return { width: image.width, height: image.height, data };
}

export interface InvarianceCase {
  /** As a report's table shows it. */
  readonly name: string;
  readonly apply: (image: RgbaImage) => RgbaImage;
  /** The photo is mirrored: the subject's left cheek is read as the right (compare leftCheek with rightCheek). */
  readonly swapsSides?: boolean;
}

/**
 * The changes no metric should follow, in a report's order. Gradients: + is lighter towards the bottom
 * (vertical) or the photo's right (side), ramping from 1 − 10 % to 1 + 10 % of the linear light.
 */
export const INVARIANCE_SET: readonly InvarianceCase[] = [
  { name: 'exposure −20 %', apply: (image) => exposeLinear(image, 0.8) },
  { name: 'exposure −10 %', apply: (image) => exposeLinear(image, 0.9) },
  { name: 'exposure +10 %', apply: (image) => exposeLinear(image, 1.1) },
  { name: 'exposure +20 %', apply: (image) => exposeLinear(image, 1.2) },
  { name: 'white balance warm', apply: (image) => whiteBalance(image, [1.06, 1, 0.94]) },
  { name: 'white balance cool', apply: (image) => whiteBalance(image, [0.94, 1, 1.06]) },
  { name: 'JPEG q60 4:2:0', apply: (image) => jpeg420(image, 60) },
  { name: 'rescale 50 % round trip', apply: (image) => rescaleRoundTrip(image, 0.5) },
  { name: 'horizontal flip', apply: flipHorizontal, swapsSides: true },
  { name: 'rotation −5°', apply: (image) => rotate(image, -5) },
  { name: 'rotation +5°', apply: (image) => rotate(image, 5) },
  { name: 'vertical gradient +10 % (lighter below)', apply: (image) => lightGradient(image, 'vertical', 0.1) },
  { name: 'vertical gradient −10 % (lighter above)', apply: (image) => lightGradient(image, 'vertical', -0.1) },
  { name: 'side gradient +10 % (lighter on the right)', apply: (image) => lightGradient(image, 'horizontal', 0.1) },
  { name: 'side gradient −10 % (lighter on the left)', apply: (image) => lightGradient(image, 'horizontal', -0.1) },
  { name: 'sensor noise σ 2', apply: (image) => sensorNoise(image, 2, 2) },
  { name: 'sensor noise σ 4', apply: (image) => sensorNoise(image, 4, 4) },
];

// ---------------------------------------------------------------------------------------------------
// Re-captures: the noise floors' jitter (bench/skin-noise-floor.ts), the same photo taken again.

export interface CaptureJitter {
  /** Shift as a share of the width / height. */
  readonly dx: number;
  readonly dy: number;
  /** Zoom factor (1.05 = 5 % closer). */
  readonly scale: number;
  /** Rotation in degrees. */
  readonly rotation: number;
  /** Exposure factor in linear light. */
  readonly exposure: number;
  /** White balance: linear red × (1 + warm), blue × (1 − warm). */
  readonly warm: number;
  /** Sensor noise σ, 8-bit units. */
  readonly noise: number;
  /** JPEG quality of the re-encode, with 4:2:0 chroma. */
  readonly jpegQuality: number;
  readonly seed: number;
}

/** Shift ±3 %, zoom ±5 %, rotation ±3°, exposure ±10 %, white balance ±4 %, noise σ 0–2, JPEG 70–90 at 4:2:0. */
export function randomCaptureJitter(random: () => number): CaptureJitter {
  const between = (low: number, high: number) => low + (high - low) * random();
  return {
    dx: between(-0.03, 0.03),
    dy: between(-0.03, 0.03),
    scale: between(0.95, 1.05),
    rotation: between(-3, 3),
    exposure: between(0.9, 1.1),
    warm: between(-0.04, 0.04),
    noise: between(0, 2),
    jpegQuality: Math.round(between(70, 90)),
    seed: Math.floor(random() * 2 ** 31),
  };
}

export function captureJitterImage(image: RgbaImage, jitter: CaptureJitter): RgbaImage {
  let out = transformImage(image, jitter);
  out = whiteBalance(out, [jitter.exposure * (1 + jitter.warm), jitter.exposure, jitter.exposure * (1 - jitter.warm)]);
  if (jitter.noise > 0) out = sensorNoise(out, jitter.noise, jitter.seed);
  return jpeg420(out, jitter.jpegQuality);
}
