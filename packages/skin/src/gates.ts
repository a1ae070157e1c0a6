// The capture gates (docs/skin-analysis.md §Gates): each reads one property of the photo and says
// whether it is good enough to analyse, and if not, why, in the contract's plain-word problems.

import type { CaptureSource, DetectedFace, GateId, GateProblem, GateReading, Point } from './contract.ts';
import { FACE_OVAL, pupils } from './zones.ts';

export const GATE_THRESHOLDS = {
  /** A face counts from this detector score. */
  minFaceScore: 0.8,
  /** Camera: the face's centre within this share of the frame's width / height from the frame's centre. */
  maxCentreOffset: 0.15,
  /** Inter-pupil distance at least this share of the frame's width… */
  minPupilShare: 0.15,
  /** …and at least this many pixels per millimetre on the face (≈ 63 px between the pupils). */
  minPxPerMm: 1,
  /**
   * Head pose, degrees. The model reads frontal faces' pitch high: −4° to +18.5° on the frontal test
   * photos, median +4.9° on the tuning set (test/faces): `pitchOffset` is subtracted, and the pitch
   * allowed is a little wider than the yaw to hold that spread.
   */
  maxYaw: 12,
  maxPitch: 14,
  pitchOffset: 5,
  maxRoll: 10,
  /** Eyelid opening over eye width, each eye. */
  minEyeOpening: 0.12,
  /**
   * Exposure is judged by the photo, not by the skin (a well-lit dark complexion has a low L*): too dark
   * when even the brightest part of the frame (its `brightQuantile` of L*: the whites of the eyes,
   * teeth, clothes, the background) stays below `minBrightL`, or the skin is nearly black; too bright
   * when the skin is nearly white or more than `maxClippedShare` of it is blown out (red and green at
   * 250+: the red channel alone clips on light skin in a well-exposed photo).
   */
  brightQuantile: 0.99,
  minBrightL: 45,
  minLightness: 10,
  maxLightness: 88,
  maxClippedShare: 0.1,
  /**
   * Even light: the two cheeks' skin luminance (linear light) may differ by at most this many stops
   * (a ratio, so the same lamp reads the same on every complexion; 1.25 stops ≈ 20 L* on skin of L* 60:
   * the metrics compare each pixel with its own surroundings, so a gentler slope of light does not move them).
   */
  maxCheekStops: 1.25,
  /** Chroma C*ab of the photo's mean colour (grey-world): beyond it the light is too coloured to trust. */
  maxCast: 26,
  /** Skin's hue angle h°ab as the camera saw it: skin of every tone lies in between under near-white light. */
  minSkinHue: 20,
  maxSkinHue: 85,
  /**
   * Edge sharpness (filters.ts `edgeSharpness`: the face's strongest edges read at a fine over a coarse
   * scale, noise removed) at `GATE_PX_PER_MM` or the photo's own scale if coarser. Sharp photos read
   * 1.28–1.88, the same blurred by σ 2.5 px 1.10–1.35.
   */
  minSharpness: 1.25,
} as const;

type Thresholds = { -readonly [K in keyof typeof GATE_THRESHOLDS]: number };

/**
 * How much looser a gate is once passed (the live camera's hysteresis, live-gates.ts): a reading that
 * drifts just past a threshold — the frame-to-frame flicker of a borderline photo — does not undo it.
 * Each margin is signed in the direction that relaxes its threshold.
 */
export const GATE_HYSTERESIS: Partial<Thresholds> = {
  maxCentreOffset: 0.03,
  minPupilShare: -0.01,
  maxYaw: 2,
  maxPitch: 2,
  maxRoll: 2,
  minEyeOpening: -0.02,
  minBrightL: -3,
  maxLightness: 2,
  maxClippedShare: 0.03,
  maxCheekStops: 0.2,
  maxCast: 2,
  minSkinHue: -3,
  maxSkinHue: 3,
  minSharpness: -0.05,
};

/** The thresholds in force: strict, or relaxed by the hysteresis for a gate already passed. */
export function thresholds(relaxed: boolean): Thresholds {
  const out = { ...GATE_THRESHOLDS } as Thresholds;
  if (relaxed) for (const [key, margin] of Object.entries(GATE_HYSTERESIS)) out[key as keyof Thresholds] += margin;
  return out;
}

/** The photometric gates measure the face cut out at this scale (cheap enough for every video frame). */
export const GATE_PX_PER_MM = 2;

export function reading(gate: GateId, passed: boolean, value: number | null, problem: GateProblem | null): GateReading {
  return {
    gate,
    passed,
    value: value === null ? null : Math.round(value * 1000) / 1000,
    problem: passed ? null : problem,
  };
}

/** A gate that could not be measured because an earlier one failed (no face, several faces). */
export function notMeasured(gate: GateId): GateReading {
  return { gate, passed: false, value: null, problem: null };
}

export function facesCounted(faces: readonly DetectedFace[]): DetectedFace[] {
  return faces.filter((face) => face.score >= GATE_THRESHOLDS.minFaceScore);
}

export function oneFaceGate(faces: readonly DetectedFace[]): GateReading {
  const count = facesCounted(faces).length;
  return reading('oneFace', count === 1, count, count === 0 ? 'noFace' : 'manyFaces');
}

function ovalBox(face: DetectedFace): [number, number, number, number] {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const i of FACE_OVAL) {
    const [x, y] = face.mesh[i]!;
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
  }
  return [minX, minY, maxX, maxY];
}

/** Value: share of the face outline's box outside the frame; for the camera, the larger centre offset. */
export function faceInFrameGate(
  face: DetectedFace,
  width: number,
  height: number,
  source: CaptureSource,
  relaxed = false,
): GateReading {
  const [minX, minY, maxX, maxY] = ovalBox(face);
  const boxWidth = maxX - minX;
  const boxHeight = maxY - minY;
  const outside =
    Math.max(0, -minX) / boxWidth +
    Math.max(0, maxX - width) / boxWidth +
    Math.max(0, -minY) / boxHeight +
    Math.max(0, maxY - height) / boxHeight;
  if (outside > 0) return reading('faceInFrame', false, outside, 'faceCut');
  if (source === 'upload') return reading('faceInFrame', true, 0, null);
  const offset = Math.max(Math.abs((minX + maxX) / 2 / width - 0.5), Math.abs((minY + maxY) / 2 / height - 0.5));
  return reading('faceInFrame', offset <= thresholds(relaxed).maxCentreOffset, offset, 'notCentred');
}

/** Value: the inter-pupil distance as a share of the frame's width. */
export function faceSizeGate(face: DetectedFace, width: number, pxPerMm: number, relaxed = false): GateReading {
  const t = thresholds(relaxed);
  const [p, q] = pupils(face);
  const share = Math.hypot(q[0] - p[0], q[1] - p[1]) / width;
  const passed = share >= t.minPupilShare && pxPerMm >= t.minPxPerMm;
  return reading('faceSize', passed, share, 'tooFar');
}

/** Value: the largest departure from straight, in degrees (pitch after its offset). */
export function headStraightGate(face: DetectedFace, relaxed = false): GateReading {
  const t = thresholds(relaxed);
  const { yaw, pitch, roll } = face.rotation;
  const pitchOff = pitch - t.pitchOffset;
  const worst = Math.max(Math.abs(yaw), Math.abs(pitchOff), Math.abs(roll));
  if (Math.abs(yaw) > t.maxYaw || Math.abs(pitchOff) > t.maxPitch)
    return reading('headStraight', false, worst, 'headTurned');
  if (Math.abs(roll) > t.maxRoll) return reading('headStraight', false, worst, 'headTilted');
  return reading('headStraight', true, worst, null);
}

const RIGHT_EYE_LIDS = [159, 145, 33, 133] as const;
const LEFT_EYE_LIDS = [386, 374, 362, 263] as const;

/** Value: the smaller eyelid opening over eye width of the two eyes. */
export function eyesOpenGate(face: DetectedFace, relaxed = false): GateReading {
  const at = (i: number): Point => [face.mesh[i]![0], face.mesh[i]![1]];
  const opening = ([top, bottom, inner, outer]: readonly number[]) => {
    const [tx, ty] = at(top!);
    const [bx, by] = at(bottom!);
    const [ix, iy] = at(inner!);
    const [ox, oy] = at(outer!);
    return Math.hypot(tx - bx, ty - by) / Math.max(1e-6, Math.hypot(ix - ox, iy - oy));
  };
  const value = Math.min(opening(RIGHT_EYE_LIDS), opening(LEFT_EYE_LIDS));
  return reading('eyesOpen', value >= thresholds(relaxed).minEyeOpening, value, 'eyesClosed');
}

export interface PhotometricMeasures {
  /** Median L* of the face's skin. */
  readonly lightness: number;
  /** The `brightQuantile` of L* over the whole photo. */
  readonly brightL: number;
  /** Share of the face's skin blown out (red and green at 250 or more). */
  readonly clippedShare: number;
  /** log₂ of the luminance ratio of the left cheek's skin to the right cheek's (medians). */
  readonly cheekStops: number;
  /** Chroma of the photo's mean colour. */
  readonly cast: number;
  /** Hue angle of the skin reference, degrees. */
  readonly skinHue: number;
  /** `edgeSharpness` of the face. */
  readonly sharpness: number;
}

/** The luminance ratio of two L* values, in stops (log₂). */
export function stopsBetween(L1: number, L2: number): number {
  return 3 * Math.log2((L1 + 16) / (L2 + 16));
}

/** The photometric gates; `relaxed` holds the gates judged with their hysteresis (already passed). */
export function photometricGates(m: PhotometricMeasures, relaxed: ReadonlySet<GateId> = new Set()): GateReading[] {
  const strict = thresholds(false);
  const loose = thresholds(true);
  const r = (gate: GateId) => (relaxed.has(gate) ? loose : strict);
  const e = r('exposure');
  const tooDark = m.brightL < e.minBrightL || m.lightness < e.minLightness;
  const tooBright = m.lightness > e.maxLightness || m.clippedShare > e.maxClippedShare;
  const exposure = tooDark
    ? reading('exposure', false, m.lightness, 'tooDark')
    : reading('exposure', !tooBright, m.lightness, 'tooBright');
  return [
    exposure,
    reading('evenLight', Math.abs(m.cheekStops) <= r('evenLight').maxCheekStops, m.cheekStops, 'unevenLight'),
    reading(
      'colourCast',
      m.cast <= r('colourCast').maxCast &&
        m.skinHue >= r('colourCast').minSkinHue &&
        m.skinHue <= r('colourCast').maxSkinHue,
      m.cast,
      'colourCast',
    ),
    // A photo too dark to judge is refused for that, not also as blurred.
    reading('sharpness', tooDark || m.sharpness >= r('sharpness').minSharpness, m.sharpness, 'blurred'),
  ];
}
