// The skin analysis's contract (docs/skin-analysis.md, docs/product/web-app.md#zones-and-metrics): what the face model
// gives the analysis, and what the analysis gives the web app. Everything here runs on the visitor's
// device (a Web Worker in the browser, Node in tests and benchmarks); nothing in it touches the network.

/** An RGBA image laid out as the browser's `ImageData` (row-major, 4 bytes a pixel, sRGB). */
export interface RgbaImage {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8ClampedArray;
}

export type Point = readonly [x: number, y: number];
export type Point3 = readonly [x: number, y: number, z: number];

/** The number of landmarks of one face: MediaPipe's 468-point canonical mesh, then 10 iris points. */
export const LANDMARK_COUNT = 478;

/** One face as the landmark model reports it, in the image's pixel coordinates. */
export interface DetectedFace {
  /** The detector's confidence, 0–1. */
  readonly score: number;
  /** x, y, width, height of the face box. */
  readonly box: readonly [number, number, number, number];
  /** `LANDMARK_COUNT` points: 0–467 the face mesh, 468–472 the right iris, 473–477 the left iris. */
  readonly mesh: readonly Point3[];
  /** Head pose in degrees: yaw (turned left/right), pitch (up/down), roll (tilted). */
  readonly rotation: { readonly yaw: number; readonly pitch: number; readonly roll: number };
}

/** The zones measured (docs/product/web-app.md#zones-and-metrics: forehead, cheeks, eyes, nose, chin, lip contour). */
export const ZONE_IDS = ['forehead', 'leftCheek', 'rightCheek', 'eyeArea', 'nose', 'chin', 'lipContour'] as const;
export type ZoneId = (typeof ZONE_IDS)[number];

/** The cosmetic indicators, each 0–100 (higher = more of what the name says). */
export const METRIC_IDS = ['redness', 'evenness', 'shine', 'texture', 'darkCircles'] as const;
export type MetricId = (typeof METRIC_IDS)[number];

/** Where the photo came from: the live camera (guided) or a file the visitor chose. */
export type CaptureSource = 'camera' | 'upload';

/** The capture gates (docs/product/attribution.md#visits-and-counted-clicks), in the order a visitor should fix them. */
export const GATE_IDS = [
  'oneFace',
  'faceInFrame',
  'faceSize',
  'headStraight',
  'eyesOpen',
  'exposure',
  'evenLight',
  'colourCast',
  'sharpness',
] as const;
export type GateId = (typeof GATE_IDS)[number];

/** Why a gate failed, in plain words: each is a message in both languages. */
export const GATE_PROBLEMS = [
  'noFace',
  'manyFaces',
  'notCentred',
  'faceCut',
  'tooFar',
  'headTurned',
  'headTilted',
  'eyesClosed',
  'tooDark',
  'tooBright',
  'unevenLight',
  'colourCast',
  'blurred',
] as const;
export type GateProblem = (typeof GATE_PROBLEMS)[number];

export interface GateReading {
  readonly gate: GateId;
  readonly passed: boolean;
  /** The measured value in the gate's own unit (see docs/skin-analysis.md); null when not measurable. */
  readonly value: number | null;
  /** Set when the gate failed. */
  readonly problem: GateProblem | null;
}

export interface ZoneResult {
  readonly zone: ZoneId;
  /** The zone's outline(s) in image pixels, for drawing over the photo. */
  readonly outline: readonly (readonly Point[])[];
  /** Skin pixels measured in the zone. */
  readonly pixels: number;
  /** The metrics that apply to this zone, 0–100. */
  readonly metrics: Partial<Record<MetricId, number>>;
}

/**
 * How the photo was taken, as far as the photo tells (conditions.ts): two scans are compared only
 * when these are close enough for the noise floors to hold.
 */
export interface CaptureConditions {
  /** Median L* of the face's skin: the light on the face (with the skin's own tone). */
  readonly light: number;
  /** Slope of the light across the face, in stops: subject's left cheek over right, forehead over chin. */
  readonly gradient: { readonly horizontal: number; readonly vertical: number };
  /** Correlated colour temperature of the scene's light (the photo's mean colour, McCamy), kelvin. */
  readonly colourTemperature: number;
  /** Inter-pupil distance ÷ the frame's width (the distance to the camera). */
  readonly faceSize: number;
  /** Pixels per millimetre on the face. */
  readonly pxPerMm: number;
  /** Head pose, degrees (the model's reading). */
  readonly pose: { readonly yaw: number; readonly pitch: number; readonly roll: number };
}

export interface Analysis {
  /** Version of the analysis (zones, metrics, gates); a change of definitions bumps it. */
  readonly version: string;
  /** How the photo was taken (light, its slope and colour, distance, pose); absent on scans of analysis skin-1. */
  readonly conditions?: CaptureConditions;
  readonly width: number;
  readonly height: number;
  /** Physical scale from the iris diameter. */
  readonly pxPerMm: number;
  readonly zones: readonly ZoneResult[];
  /** Face-wide value of each metric, 0–100. */
  readonly overall: Record<MetricId, number>;
}

/** An analysis's figures without the zones' outlines: all that reading and comparing scans needs. */
export interface AnalysisScores extends Omit<Analysis, 'zones'> {
  readonly zones: readonly Omit<ZoneResult, 'outline'>[];
}

/** The result of one photo: the gates always; the analysis only when every gate passed. */
export type AnalysisOutcome =
  | { readonly ok: true; readonly gates: readonly GateReading[]; readonly analysis: Analysis }
  | { readonly ok: false; readonly gates: readonly GateReading[] };
