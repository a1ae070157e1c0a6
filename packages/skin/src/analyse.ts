// The analysis of one photo (docs/skin-analysis.md): gates first, then the zones and the metrics on
// the face cut out upright at a fixed physical scale. Pure computation over the pixels and the
// face model's landmarks; runs the same in a Web Worker and under Node.

import {
  GATE_IDS,
  METRIC_IDS,
  ZONE_IDS,
  type Analysis,
  type AnalysisOutcome,
  type CaptureConditions,
  type CaptureSource,
  type DetectedFace,
  type GateId,
  type GateReading,
  type MetricId,
  type Point,
  type RgbaImage,
  type ZoneId,
  type ZoneResult,
} from './contract.ts';
import {
  castChroma,
  greyWorldGains,
  imageToLab,
  imageToLightness,
  linearRgbToXyz,
  meanLinearRgb,
  SRGB8_TO_LINEAR,
  xyzToLab,
  type LabImage,
} from './colour.ts';
import { edgeSharpness } from './filters.ts';
import {
  eyesOpenGate,
  faceInFrameGate,
  facesCounted,
  faceSizeGate,
  GATE_PX_PER_MM,
  GATE_THRESHOLDS,
  headStraightGate,
  notMeasured,
  oneFaceGate,
  photometricGates,
  stopsBetween,
} from './gates.ts';
import { resampleAffine } from './image.ts';
import { dilateMask, type Mask, maskBox } from './mask.ts';
import {
  darkCirclesScore,
  keepSkin,
  keepSkinAndDiffuse,
  measureZone,
  METRIC_TUNING,
  median,
  trimmedMean,
  valuesIn,
  metricFields,
  rednessReferences,
  skinReference,
  toScore,
  zoneScores,
  type SkinReference,
  type ZoneMeasures,
} from './metrics.ts';
import { colourTemperature } from './conditions.ts';
import {
  cropPixels,
  faceCrop,
  exclusionMask,
  faceOvalMask,
  faceScale,
  pupils,
  zoneMasks,
  zoneOutlines,
  type FaceCrop,
} from './zones.ts';

/** Bumped whenever a zone, a metric or a gate changes definition (the journal compares like with like). */
export const ANALYSIS_VERSION = 'skin-9';
/**
 * Gates and metrics run on the face cut out upright at this scale (a face with its margin,
 * ≈ 135 × 150 mm around the zones, becomes ≈ 270 × 300 pixels): the same detail whatever the distance and the camera.
 */
export const ANALYSIS_PX_PER_MM = GATE_PX_PER_MM;

export interface AnalyseOptions {
  readonly source: CaptureSource;
  /**
   * Gates already passed in the live camera (live-gates.ts): judged with their hysteresis margin, so
   * the frame taken is not refused for the flicker of a reading that the preview had settled.
   */
  readonly settled?: ReadonlySet<GateId>;
}

interface PhotoStats {
  /** Mean linear RGB. */
  readonly mean: [number, number, number];
  /** The gates' bright quantile of L* (see GATE_THRESHOLDS.brightQuantile). */
  readonly brightL: number;
}

/** Mean linear RGB and the bright end of L* over the whole photo (every 4th pixel of every 4th row is plenty). */
function photoStats(image: RgbaImage): PhotoStats {
  let r = 0;
  let g = 0;
  let b = 0;
  let n = 0;
  // Every 4th pixel of every 4th row: the sample's size is known, so one typed array (a frame of the
  // live camera comes through here too).
  const luminances = new Float32Array(Math.ceil(image.height / 4) * Math.ceil(image.width / 4));
  for (let y = 0; y < image.height; y += 4) {
    for (let x = 0; x < image.width; x += 4) {
      const p = (y * image.width + x) * 4;
      const lr = SRGB8_TO_LINEAR[image.data[p]!]!;
      const lg = SRGB8_TO_LINEAR[image.data[p + 1]!]!;
      const lb = SRGB8_TO_LINEAR[image.data[p + 2]!]!;
      r += lr;
      g += lg;
      b += lb;
      luminances[n++] = 0.2126729 * lr + 0.7151522 * lg + 0.072175 * lb;
    }
  }
  if (!n) return { mean: [0, 0, 0], brightL: 0 };
  const y = median(luminances, GATE_THRESHOLDS.brightQuantile);
  return { mean: [r / n, g / n, b / n], brightL: xyzToLab(y * 0.95047, y, y * 1.08883)[0] };
}

function photoMean(image: RgbaImage): [number, number, number] {
  return photoStats(image).mean;
}

interface PreparedFace {
  readonly crop: FaceCrop;
  /** The crop's pixels as taken (before the colour normalisation). */
  readonly pixels: RgbaImage;
  readonly lab: LabImage;
  readonly masks: Record<ZoneId, Mask>;
  /** Every zone together. */
  readonly union: Mask;
  /** The zones' pixels that look like the face's skin (hair, brows, beard, deep shadow left out). */
  readonly skin: Mask;
  /** Median L* of each cheek's skin, and the eye area's L* as drawn (the mean of its lighter half). */
  readonly medianL: { readonly leftCheek: number; readonly rightCheek: number; readonly eyeArea: number };
  readonly reference: SkinReference;
  /** Eyes, brows and the lips' red, grown a little (zones.ts `exclusionMask`): no zone's, no skin. */
  readonly excluded: Mask;
  /** The whole photo's mean linear RGB. */
  readonly photoMean: Rgb;
  /**
   * The light falling on the face, per zone: the median L* of the zone's skin of the face's own colour,
   * highlights left out (metrics.ts `keepDiffuseSkin`) — the cheeks for the light's side-to-side slope
   * (the even-light gate, the capture conditions), the forehead and the chin for its vertical slope.
   */
  readonly light: {
    readonly leftCheek: number;
    readonly rightCheek: number;
    readonly forehead: number;
    readonly chin: number;
  };
}

type Rgb = [number, number, number];

/** Cuts the face out upright at `pxPerMm` (shrinking the photo first when it is much larger). */
function prepare(image: RgbaImage, face: DetectedFace, pxPerMm: number, mean: Rgb): PreparedFace {
  const gains = greyWorldGains(mean);
  const crop = faceCrop(face, pxPerMm);
  const pixels = cropPixels(image, crop);
  const lab = imageToLab(pixels, gains);
  const excluded = exclusionMask(crop);
  const masks = zoneMasks(crop, excluded);
  // The face's own skin reference: medians over every zone (hair and shadow are a minority).
  const zones = new Uint8Array(crop.width * crop.height);
  for (const zone of ZONE_IDS) {
    const mask = masks[zone];
    for (let i = 0; i < zones.length; i++) zones[i] = zones[i]! | mask[i]!;
  }
  const reference = skinReference(lab, zones);
  const { skin, diffuse } = keepSkinAndDiffuse(lab, zones, reference);
  // The median L* of a zone's pixels in `kept`; of the zone as drawn when `kept` holds none of it.
  const medianIn = (kept: Mask) => (mask: Mask) => {
    const out = new Uint8Array(mask.length);
    for (let i = 0; i < mask.length; i++) out[i] = mask[i]! & kept[i]!;
    const value = medianOf(lab.L, out);
    return Number.isNaN(value) ? medianOf(lab.L, mask) : value;
  };
  const skinMedianL = medianIn(skin);
  const lightL = medianIn(diffuse);
  const medianL = {
    // The cheeks' skin only (dark circles compare the under-eye with it): a beard or a strand of hair is
    // not the cheek's skin.
    leftCheek: skinMedianL(masks.leftCheek),
    rightCheek: skinMedianL(masks.rightCheek),
    // The eye area as drawn (a dark under-eye must not be taken for shadow and dropped), by the mean of
    // its lighter half: the lower lid's rim and lashes along its top edge are not the under-eye's skin.
    eyeArea: trimmedMean(valuesIn(lab.L, masks.eyeArea), METRIC_TUNING.darkCirclesFrom, METRIC_TUNING.darkCirclesTo),
  };
  return {
    crop,
    pixels,
    lab,
    masks,
    excluded,
    union: zones,
    skin,
    reference,
    medianL,
    photoMean: mean,
    light: {
      leftCheek: lightL(masks.leftCheek),
      rightCheek: lightL(masks.rightCheek),
      forehead: lightL(masks.forehead),
      chin: lightL(masks.chin),
    },
  };
}

/**
 * The redness reference (docs/skin-analysis.md § Metrics): the median a* / (L* + 16) of the face's outer
 * skin — temples, jaw, the skin between the zones — a margin away from every zone, so that a change in
 * one zone moves no other's; NaN when too little of it shows (hair, a beard).
 */
function outerRedRatio({ crop, lab, union, excluded, reference }: PreparedFace): number {
  const t = METRIC_TUNING;
  const outer = faceOvalMask(crop);
  const nearZones = dilateMask(union, crop.width, crop.height, t.outerMarginMm * crop.pxPerMm);
  for (let i = 0; i < outer.length; i++) outer[i] = outer[i]! & (nearZones[i]! ^ 1) & (excluded[i]! ^ 1);
  const skin = keepSkin(lab, outer, reference);
  const ratios = valuesIn(lab.a, skin);
  const L = valuesIn(lab.L, skin);
  for (let i = 0; i < ratios.length; i++) ratios[i] = ratios[i]! / (L[i]! + 16);
  return ratios.length >= t.outerMinCm2 * 100 * crop.pxPerMm ** 2 ? median(ratios) : NaN;
}

function medianOf(plane: Float32Array, mask: Mask): number {
  return median(valuesIn(plane, mask));
}

interface SkinWindow {
  readonly lab: LabImage;
  /** Each zone's skin-coloured pixels. */
  readonly skinMasks: Record<ZoneId, Mask>;
  /** All of them. */
  readonly skin: Mask;
}

/** The zones' skin (hair, brows, beard and deep shadow left out), cut to its bounding box grown by `margin` pixels. */
function skinWindow(prepared: PreparedFace, margin: number): SkinWindow {
  const fullSkin = prepared.skin;
  const { width, height } = prepared.lab;
  const { x0, y0, x1, y1 } = maskBox(fullSkin, width, height, margin) ?? {
    x0: 0,
    y0: 0,
    x1: width - 1,
    y1: height - 1,
  };
  const w = x1 - x0 + 1;
  const h = y1 - y0 + 1;
  function cut<T extends Float32Array | Uint8Array>(plane: T, make: (n: number) => T): T {
    const out = make(w * h);
    for (let y = 0; y < h; y++) out.set(plane.subarray((y + y0) * width + x0, (y + y0) * width + x0 + w), y * w);
    return out;
  }
  const floats = (n: number) => new Float32Array(n);
  const skin = cut(fullSkin, (n) => new Uint8Array(n));
  const skinMasks = {} as Record<ZoneId, Mask>;
  for (const zone of ZONE_IDS) {
    const mask = cut(prepared.masks[zone], (n) => new Uint8Array(n));
    for (let i = 0; i < mask.length; i++) mask[i] = mask[i]! & skin[i]!;
    skinMasks[zone] = mask;
  }
  return {
    lab: {
      width: w,
      height: h,
      L: cut(prepared.lab.L, floats),
      a: cut(prepared.lab.a, floats),
      b: cut(prepared.lab.b, floats),
    },
    skin,
    skinMasks,
  };
}

interface GateResult {
  readonly gates: GateReading[];
  readonly face: DetectedFace | null;
  readonly prepared: PreparedFace | null;
}

function runGates(image: RgbaImage, faces: readonly DetectedFace[], options: AnalyseOptions): GateResult {
  const { mean, brightL } = photoStats(image);
  const counted = facesCounted(faces);
  const first = oneFaceGate(faces);
  const face = counted.length === 1 ? counted[0]! : null;
  if (!face) {
    return { gates: [first, ...GATE_IDS.slice(1).map(notMeasured)], face: null, prepared: null };
  }
  const pxPerMm = faceScale(face);
  const settled = options.settled ?? new Set<GateId>();
  const gates: GateReading[] = [
    first,
    faceInFrameGate(face, image.width, image.height, options.source, settled.has('faceInFrame')),
    faceSizeGate(face, image.width, pxPerMm, settled.has('faceSize')),
    headStraightGate(face, settled.has('headStraight')),
    eyesOpenGate(face, settled.has('eyesOpen')),
  ];
  const prepared = prepare(image, face, ANALYSIS_PX_PER_MM, mean);
  const lightness = prepared.reference.L;
  const cheekStops = stopsBetween(prepared.light.leftCheek, prepared.light.rightCheek);
  // The skin's hue as the camera saw it (the grey-world correction would hide a cast it cannot undo).
  const left = meanLinearRgb(prepared.pixels, prepared.masks.leftCheek);
  const right = meanLinearRgb(prepared.pixels, prepared.masks.rightCheek);
  const [r, g, b] = [0, 1, 2].map((i) => (left[i]! + right[i]!) / 2) as [number, number, number];
  const [, skinA, skinB] = xyzToLab(...linearRgbToXyz(r, g, b));
  const skinHue = (Math.atan2(skinB, skinA) * 180) / Math.PI;
  gates.push(
    ...photometricGates(
      {
        lightness,
        brightL,
        clippedShare: clippedShare(prepared.pixels, prepared.skin),
        cheekStops,
        cast: castChroma(mean),
        skinHue,
        sharpness: sharpness(image, face, prepared),
      },
      settled,
    ),
  );
  return { gates, face, prepared };
}

/** Share of the skin pixels blown out: red and green at 250 or more (red alone clips on light skin). */
function clippedShare(pixels: RgbaImage, skin: Mask): number {
  let clipped = 0;
  let count = 0;
  for (let i = 0; i < skin.length; i++) {
    if (skin[i] === 0) continue;
    count++;
    const p = i * 4;
    if (pixels.data[p]! >= 250 && pixels.data[p + 1]! >= 250) clipped++;
  }
  return count ? clipped / count : 0;
}

/**
 * The sharpness of the face's edges (eyes, brows, mouth and outline included: their edges are what
 * blur erases), relative to their own contrast (filters.ts `edgeSharpness`), read at the analysis
 * scale, or at the photo's own scale when it is coarser (an enlarged photo would look blurred
 * whatever its focus).
 */
function sharpness(image: RgbaImage, face: DetectedFace, prepared: PreparedFace): number {
  let crop = prepared.crop;
  let L = prepared.lab.L;
  if (crop.sourcePxPerMm < crop.pxPerMm) {
    crop = faceCrop(face, crop.sourcePxPerMm);
    L = imageToLightness(resampleAffine(image, crop.width, crop.height, crop.toSource));
  }
  return edgeSharpness(L, crop.width, crop.height, faceOvalMask(crop));
}

/** The gates alone (cheap: for every frame of the live camera). */
export function checkGates(image: RgbaImage, faces: readonly DetectedFace[], options: AnalyseOptions): GateReading[] {
  return runGates(image, faces, options).gates;
}

export interface DetailedAnalysis {
  readonly analysis: Analysis;
  /** Raw measures per zone before the 0–100 mapping (benchmarks, tuning). */
  readonly measures: Record<ZoneId, ZoneMeasures>;
}

/** Zones and metrics of one face, whatever the gates say (the caller decides). */
export function analyseFace(image: RgbaImage, face: DetectedFace): DetailedAnalysis {
  return analysePrepared(image, face, prepare(image, face, ANALYSIS_PX_PER_MM, photoMean(image)));
}

function analysePrepared(image: RgbaImage, face: DetectedFace, prepared: PreparedFace): DetailedAnalysis {
  const { crop, reference } = prepared;
  // The metrics run on the skin's bounding box (plus 2 mm) only.
  const window = skinWindow(prepared, Math.ceil(2 * crop.pxPerMm));
  const { lab, skin, skinMasks } = window;
  const fields = metricFields(lab, skin, reference, crop.pxPerMm);
  const outlines = zoneOutlines(face);
  const measures = {} as Record<ZoneId, ZoneMeasures>;
  // Redness against the outer skin; when too little of it shows, against the other zones.
  const outerRed = outerRedRatio(prepared);
  const redReferences = Number.isNaN(outerRed) ? rednessReferences(fields, skinMasks) : null;
  for (const zone of ZONE_IDS)
    measures[zone] = measureZone(
      fields,
      lab,
      skinMasks[zone],
      crop.pxPerMm,
      redReferences ? redReferences.get(zone) : outerRed,
    );
  // Dark circles: the eye area as drawn against the cheeks' skin (see prepare).
  const cheekL = (prepared.medianL.leftCheek + prepared.medianL.rightCheek) / 2;
  const eyeAreaL = prepared.medianL.eyeArea;
  const zones: ZoneResult[] = ZONE_IDS.map((zone) => {
    const metrics = zoneScores(zone, measures[zone]);
    if (zone === 'eyeArea') metrics.darkCircles = darkCirclesScore(eyeAreaL, cheekL);
    return {
      zone,
      outline: outlines[zone].map((loop) =>
        loop.map(([x, y]): Point => [Math.round(x * 10) / 10, Math.round(y * 10) / 10]),
      ),
      pixels: measures[zone].pixels,
      metrics,
    };
  });
  const overall = {} as Record<MetricId, number>;
  for (const metric of METRIC_IDS) {
    let sum = 0;
    let weight = 0;
    for (const zone of zones) {
      const value = zone.metrics[metric];
      if (value === undefined || zone.pixels === 0) continue;
      sum += value * zone.pixels;
      weight += zone.pixels;
    }
    overall[metric] = weight ? toScore(sum / weight / 100) : 0;
  }
  const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;
  const [p, q] = pupils(face);
  const conditions: CaptureConditions = {
    light: round(reference.L, 1),
    gradient: {
      horizontal: round(stopsBetween(prepared.light.leftCheek, prepared.light.rightCheek)),
      vertical: round(stopsBetween(prepared.light.forehead, prepared.light.chin)),
    },
    colourTemperature: Math.round(colourTemperature(prepared.photoMean)),
    faceSize: round(Math.hypot(q[0] - p[0], q[1] - p[1]) / image.width),
    pxPerMm: round(crop.sourcePxPerMm),
    pose: {
      yaw: round(face.rotation.yaw, 1),
      pitch: round(face.rotation.pitch, 1),
      roll: round(face.rotation.roll, 1),
    },
  };
  return {
    analysis: {
      version: ANALYSIS_VERSION,
      conditions,
      width: image.width,
      height: image.height,
      pxPerMm: Math.round(crop.sourcePxPerMm * 1000) / 1000,
      zones,
      overall,
    },
    measures,
  };
}

/** Gates, then (only when every gate passed) the analysis. */
export function analysePhoto(
  image: RgbaImage,
  faces: readonly DetectedFace[],
  options: AnalyseOptions,
): AnalysisOutcome {
  const { gates, face, prepared } = runGates(image, faces, options);
  if (!face || !prepared || gates.some((gate) => !gate.passed)) return { ok: false, gates };
  return { ok: true, gates, analysis: analysePrepared(image, face, prepared).analysis };
}
