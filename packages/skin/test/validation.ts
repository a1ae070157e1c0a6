// The validation harness (docs/skin-validation.md): the real photos the gates accept, the phantom
// edits at their doses, and how a score is read and compared with its noise floor. Shared by the tests
// (a small, sharp subset: test/validation-*.test.ts) and the full report (bench/skin-validation.ts).

import { analyseFace, analysePhoto } from '../src/analyse.ts';
import type { Analysis, DetectedFace, MetricId, RgbaImage, ZoneId } from '../src/contract.ts';
import { noiseFloor, type Place } from '../src/trend.ts';
import { readImage } from './images.ts';
import type { NodeFaceModel } from './node-face-model.ts';
import { addHighlight, addRedness, addSpots, addTexture, darkenUnderEyes } from './phantoms.ts';
import { REAL_FACES, realFacePath, type RealFace } from './real-faces.ts';

export interface ValidationPhoto {
  readonly name: string;
  /** Skin tone (ITA°) as the photo shows it; null for the first fixtures (not surveyed). */
  readonly ita: number | null;
  readonly set: RealFace['set'] | 'fixture';
  readonly image: RgbaImage;
  readonly face: DetectedFace;
  readonly analysis: Analysis;
}

/** The first fixtures (test/fixtures), tuned on since the beginning. */
export const FIXTURE_FACES = ['face-sample3-a.jpg', 'face-sample6-a.jpg', 'face-sample6-b.jpg'];

export interface Refused {
  readonly name: string;
  readonly ita: number | null;
  readonly set: ValidationPhoto['set'];
  /** gate:problem of each failing gate. */
  readonly problems: readonly string[];
}

/** Every real photo (and first fixture) with what the gates say: the accepted ones analysed. */
export async function loadPhotos(
  model: NodeFaceModel,
  sets: readonly ValidationPhoto['set'][] = ['fixture', 'tuning', 'held-out'],
): Promise<{ accepted: ValidationPhoto[]; refused: Refused[] }> {
  const sources = [
    ...FIXTURE_FACES.map((file) => ({ name: file, ita: null, set: 'fixture' as const, path: file })),
    ...REAL_FACES.map((face) => ({ name: face.file, ita: face.ita, set: face.set, path: realFacePath(face) })),
  ].filter((source) => sets.includes(source.set));
  const accepted: ValidationPhoto[] = [];
  const refused: Refused[] = [];
  for (const source of sources) {
    const image = readImage(source.path);
    const faces = await model.detect(image);
    const outcome = analysePhoto(image, faces, { source: 'upload' });
    if (outcome.ok) accepted.push({ ...source, image, face: faces[0]!, analysis: outcome.analysis });
    else
      refused.push({
        ...source,
        problems: outcome.gates.filter((g) => !g.passed && g.problem).map((g) => `${g.gate}:${g.problem}`),
      });
  }
  return { accepted, refused };
}

/** One score: a metric in a zone, or face-wide. */
export function score(analysis: Analysis, metric: MetricId, place: Place): number | undefined {
  if (place === 'overall') return analysis.overall[metric];
  return analysis.zones.find((zone) => zone.zone === place)?.metrics[metric];
}

/** Every cell an analysis reports: [place, metric, value]. */
export function cellsOf(analysis: Analysis): [Place, MetricId, number][] {
  const out: [Place, MetricId, number][] = [];
  for (const [metric, value] of Object.entries(analysis.overall) as [MetricId, number][])
    out.push(['overall', metric, value]);
  for (const zone of analysis.zones)
    for (const [metric, value] of Object.entries(zone.metrics) as [MetricId, number][])
      out.push([zone.zone, metric, value]);
  return out;
}

/** The floor the app uses for a cell (trend.ts: the measured floor, never under 1). */
export const floorOf = (metric: MetricId, place: Place): number => noiseFloor(metric, place) ?? 1;

/**
 * The analysis of an edited copy. The phantom edits change colour, not geometry, so the face found on
 * the original is reused (the tests, for time); `model` re-detects it (the report: the whole pipeline).
 */
export async function analyseEdited(
  photo: ValidationPhoto,
  edited: RgbaImage,
  model?: NodeFaceModel,
): Promise<Analysis | null> {
  if (!model) return analyseFace(edited, photo.face).analysis;
  const outcome = analysePhoto(edited, await model.detect(edited), { source: 'upload' });
  return outcome.ok ? outcome.analysis : null;
}

/** A phantom edit and the score it is meant to move. */
export interface Edit {
  readonly name: string;
  readonly metric: MetricId;
  readonly zone: ZoneId;
  /** Doses, in the edit's own unit, smallest first; `standard` is the one the tests and the leakage use. */
  readonly doses: readonly number[];
  readonly standard: number;
  readonly unit: string;
  readonly apply: (photo: ValidationPhoto, dose: number) => RgbaImage;
}

export const EDITS: readonly Edit[] = [
  {
    name: 'redness, left cheek',
    metric: 'redness',
    zone: 'leftCheek',
    doses: [1, 2, 4, 6, 8],
    standard: 4,
    unit: 'Δa*',
    apply: (photo, dose) => addRedness(photo.image, photo.face, 'leftCheek', dose),
  },
  {
    name: 'spots (2 mm, −10 L*), left cheek',
    metric: 'evenness',
    zone: 'leftCheek',
    doses: [4, 8, 16, 24, 32],
    standard: 16,
    unit: 'spots',
    apply: (photo, dose) =>
      addSpots(photo.image, photo.face, 'leftCheek', { count: dose, diameterMm: 2, deltaL: -10, seed: 16 }).image,
  },
  {
    name: 'spots (2 mm, −10 L*), forehead',
    metric: 'evenness',
    zone: 'forehead',
    doses: [4, 8, 16, 24, 32],
    standard: 16,
    unit: 'spots',
    apply: (photo, dose) =>
      addSpots(photo.image, photo.face, 'forehead', { count: dose, diameterMm: 2, deltaL: -10, seed: 16 }).image,
  },
  {
    name: 'spot depth (16 spots of 2 mm), left cheek',
    metric: 'evenness',
    zone: 'leftCheek',
    doses: [-4, -6, -8, -10, -12, -15],
    standard: -10,
    unit: 'ΔL*',
    apply: (photo, dose) =>
      addSpots(photo.image, photo.face, 'leftCheek', { count: 16, diameterMm: 2, deltaL: dose, seed: 16 }).image,
  },
  {
    name: 'highlight, nose',
    metric: 'shine',
    zone: 'nose',
    doses: [0.05, 0.1, 0.2, 0.3],
    standard: 0.1,
    unit: 'share of the zone',
    apply: (photo, dose) => addHighlight(photo.image, photo.face, 'nose', { share: dose }).image,
  },
  {
    name: 'texture (band-pass 0.5–2 mm), chin',
    metric: 'texture',
    zone: 'chin',
    doses: [0.5, 1, 2, 3, 4],
    standard: 2,
    unit: 'L* RMS',
    apply: (photo, dose) => addTexture(photo.image, photo.face, 'chin', dose, 9),
  },
  {
    name: 'dark circles, under the eyes',
    metric: 'darkCircles',
    zone: 'eyeArea',
    doses: [-1, -2, -4, -6, -8],
    standard: -4,
    unit: 'ΔL*',
    apply: (photo, dose) => darkenUnderEyes(photo.image, photo.face, dose),
  },
];

export const median = (values: readonly number[]): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

export const quantile = (values: readonly number[], q: number): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(q * (sorted.length - 1))))]!;
};

/**
 * Changes of the invariance set a metric is known to follow beyond its floor, as the validation report
 * lists them (docs/skin-validation.md § Invariance): a listed sensitivity is a documented limit, an
 * unlisted one a failure of the tests.
 */
export const KNOWN_SENSITIVITIES: readonly {
  readonly variant: string;
  readonly metric: MetricId;
  readonly why: string;
}[] = [];
