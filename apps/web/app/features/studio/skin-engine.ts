import {
  type AnalysisOutcome,
  type CaptureSource,
  type DetectedFace,
  GATE_IDS,
  type GateReading,
  METRIC_IDS,
  type Point,
  type RgbaImage,
  ZONE_IDS,
} from '@skanova/skin/contract';

// PLACEHOLDER until the skin package's analysis lands: the worker's two entry points with the
// contract's signatures. Gates: one face, large enough, head straight; zones: boxes around landmark
// groups; metrics: a constant 50. Replaced by `@skanova/skin`'s analysePhoto and checkGates.

function gatesOf(image: RgbaImage, faces: readonly DetectedFace[]): GateReading[] {
  const face = faces.length === 1 ? faces[0]! : undefined;
  const reading = (gate: (typeof GATE_IDS)[number], passed: boolean, problem: GateReading['problem']) => ({
    gate,
    passed,
    value: null,
    problem: passed ? null : problem,
  });
  return GATE_IDS.map((gate) => {
    if (gate === 'oneFace') return reading(gate, faces.length === 1, faces.length === 0 ? 'noFace' : 'manyFaces');
    if (!face) return reading(gate, false, 'noFace');
    if (gate === 'faceSize') return reading(gate, face.box[2] >= image.width * 0.2, 'tooFar');
    if (gate === 'headStraight')
      return reading(gate, Math.abs(face.rotation.yaw) <= 15 && Math.abs(face.rotation.roll) <= 12, 'headTurned');
    return reading(gate, true, null);
  });
}

export function checkGates(
  image: RgbaImage,
  faces: readonly DetectedFace[],
  _options: { source: CaptureSource },
): GateReading[] {
  return gatesOf(image, faces);
}

export function analysePhoto(
  image: RgbaImage,
  faces: readonly DetectedFace[],
  _options: { source: CaptureSource },
): AnalysisOutcome {
  const gates = gatesOf(image, faces);
  if (!gates.every((gate) => gate.passed)) return { ok: false, gates };
  const mesh = faces[0]!.mesh;
  const groups: Record<(typeof ZONE_IDS)[number], number[]> = {
    forehead: [67, 109, 10, 338, 297, 299, 9, 69],
    leftCheek: [345, 352, 411, 425, 266, 330],
    rightCheek: [116, 123, 187, 205, 36, 101],
    eyeArea: [230, 231, 232, 228, 229],
    nose: [6, 197, 195, 5, 4, 45, 275],
    chin: [152, 148, 377, 200, 175],
    lipContour: [61, 291, 0, 17, 37, 267],
  };
  const zones = ZONE_IDS.map((zone) => {
    const points = groups[zone].map((index) => mesh[index]!);
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const outline: Point[] = [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
    ];
    return {
      zone,
      outline: [outline],
      pixels: Math.round((x1 - x0) * (y1 - y0)),
      metrics: Object.fromEntries(METRIC_IDS.map((metric) => [metric, 50])),
    };
  });
  return {
    ok: true,
    gates,
    analysis: {
      version: 'placeholder',
      width: image.width,
      height: image.height,
      pxPerMm: 1,
      zones,
      overall: Object.fromEntries(METRIC_IDS.map((metric) => [metric, 50])) as Record<
        (typeof METRIC_IDS)[number],
        number
      >,
    },
  };
}
