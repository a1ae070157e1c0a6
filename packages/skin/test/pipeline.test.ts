import { beforeAll, describe, expect, it } from 'vitest';
import {
  METRIC_IDS,
  ZONE_IDS,
  type CaptureSource,
  type GateId,
  type GateProblem,
  type RgbaImage,
} from '../src/contract.ts';
import { analysePhoto, ANALYSIS_PX_PER_MM, checkGates } from '../src/analyse.ts';
import { overlapCount, polygonMask } from '../src/mask.ts';
import { faceCrop, LEFT_EYE, LIPS_OUTER, RIGHT_EYE, zoneMasks } from '../src/zones.ts';
import path from 'node:path';
import { readImage } from './images.ts';
import { FACES_DIR } from './real-faces.ts';
import { nodeFaceModel, type NodeFaceModel } from './node-face-model.ts';
import { blur, cropImage, scaleBrightness, tint, transformImage } from './variants.ts';

/** Selfie-like fixtures that pass every gate (test/fixtures/LICENCE.md). */
export const GOOD_FACES = ['face-sample3-a.jpg', 'face-sample6-a.jpg', 'face-sample6-b.jpg'];

let model: NodeFaceModel;
beforeAll(async () => {
  model = await nodeFaceModel();
});

async function outcome(image: RgbaImage, source: CaptureSource = 'upload') {
  return analysePhoto(image, await model.detect(image), { source });
}

function failing(gates: readonly { gate: GateId; passed: boolean; problem: GateProblem | null }[]) {
  return gates.filter((g) => !g.passed).map((g) => `${g.gate}:${g.problem}`);
}

describe.each(GOOD_FACES)('the face pipeline on %s', (file) => {
  it('finds one face, passes every gate and measures every zone', async () => {
    const image = readImage(file);
    const faces = await model.detect(image);
    expect(faces).toHaveLength(1);
    const result = analysePhoto(image, faces, { source: 'upload' });
    expect(failing(result.gates)).toEqual([]);
    if (!result.ok) throw new Error('refused');
    const { analysis } = result;
    expect(analysis.zones.map((z) => z.zone)).toEqual([...ZONE_IDS]);
    const [bx, by, bw, bh] = faces[0]!.box;
    for (const zone of analysis.zones) {
      // At least 1 cm² of skin measured in each zone.
      expect(zone.pixels, zone.zone).toBeGreaterThan(100 * ANALYSIS_PX_PER_MM ** 2);
      for (const loop of zone.outline)
        for (const [x, y] of loop) {
          expect(x).toBeGreaterThanOrEqual(bx);
          expect(x).toBeLessThanOrEqual(bx + bw);
          expect(y).toBeGreaterThanOrEqual(by);
          expect(y).toBeLessThanOrEqual(by + bh);
        }
      for (const value of Object.values(zone.metrics)) {
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(100);
      }
    }
    for (const metric of METRIC_IDS) expect(analysis.overall[metric]).toBeGreaterThanOrEqual(0);
    expect(analysis.pxPerMm).toBeGreaterThan(1);
  });

  it('no zone overlaps the eyes or the red of the lips', async () => {
    const image = readImage(file);
    const [face] = await model.detect(image);
    const crop = faceCrop(face!, ANALYSIS_PX_PER_MM);
    const at = (indices: readonly number[]) => indices.map((i) => crop.mesh[i]!);
    const eyes = polygonMask(crop.width, crop.height, [at(RIGHT_EYE), at(LEFT_EYE)]);
    const lips = polygonMask(crop.width, crop.height, [at(LIPS_OUTER)]);
    const masks = zoneMasks(crop);
    for (const zone of ZONE_IDS) {
      expect(overlapCount(masks[zone], eyes), zone).toBe(0);
      expect(overlapCount(masks[zone], lips), zone).toBe(0);
    }
    // Zones do not overlap one another either.
    for (const a of ZONE_IDS)
      for (const b of ZONE_IDS) if (a < b) expect(overlapCount(masks[a], masks[b]), `${a}/${b}`).toBe(0);
  });

  it('the live gates agree with the analysis gates', async () => {
    const image = readImage(file);
    const faces = await model.detect(image);
    expect(checkGates(image, faces, { source: 'upload' })).toEqual(
      analysePhoto(image, faces, { source: 'upload' }).gates,
    );
  });
});

describe('refusals, each with its reason', () => {
  const face = () => readImage('face-sample6-a.jpg');

  it('no face: a blank frame, a scene without people, a cat', async () => {
    const blank = { width: 480, height: 480, data: new Uint8ClampedArray(480 * 480 * 4).fill(140) };
    const scene = cropImage(readImage('astronaut.jpg'), 300, 0, 212, 300);
    for (const image of [blank, scene, readImage('chelsea.jpg')]) {
      const result = await outcome(image);
      expect(result.ok).toBe(false);
      expect(failing(result.gates)[0]).toBe('oneFace:noFace');
      // The gates after it are not measured.
      expect(result.gates.slice(1).every((g) => g.value === null && g.problem === null)).toBe(true);
    }
  });

  it('two faces', async () => {
    const result = await outcome(readImage('two-faces-sample6.jpg'));
    expect(failing(result.gates)[0]).toBe('oneFace:manyFaces');
  });

  it('too dark', async () => {
    const result = await outcome(scaleBrightness(face(), 0.25));
    expect(failing(result.gates)).toContain('exposure:tooDark');
  });

  it('blurred', async () => {
    const result = await outcome(blur(face(), 2.5));
    expect(failing(result.gates)).toEqual(['sharpness:blurred']);
  });

  it('head turned (a photo of a turned head)', async () => {
    const result = await outcome(readImage('camera.jpg'));
    expect(failing(result.gates)).toContain('headStraight:headTurned');
  });

  it('head tilted (a rotated copy)', async () => {
    const result = await outcome(transformImage(face(), { dx: 0, dy: 0, scale: 1, rotation: 25 }));
    expect(failing(result.gates)).toEqual(['headStraight:headTilted']);
  });

  it('strong colour casts (blue, green, warm)', async () => {
    for (const gains of [
      [0.6, 0.85, 1],
      [0.75, 1, 0.75],
      [1, 0.8, 0.55],
    ] as const) {
      const result = await outcome(tint(face(), gains));
      expect(failing(result.gates), gains.join()).toContain('colourCast:colourCast');
    }
  });

  it('face too small in the frame (the whole astronaut portrait)', async () => {
    const result = await outcome(readImage('astronaut.jpg'));
    expect(failing(result.gates)).toContain('faceSize:tooFar');
  });

  it('uneven light (faces lit from one side, more than 1.25 stops between the cheeks)', async () => {
    for (const file of ['face-087.jpg', 'face-084.jpg']) {
      const result = await outcome(readImage(path.join(FACES_DIR, file)));
      expect(failing(result.gates), file).toEqual(['evenLight:unevenLight']);
    }
  });

  it('the camera wants the face centred; an upload does not', async () => {
    const shifted = transformImage(face(), { dx: 0.2, dy: 0, scale: 0.85, rotation: 0 });
    expect(failing((await outcome(shifted, 'camera')).gates)).toContain('faceInFrame:notCentred');
    expect(failing((await outcome(shifted, 'upload')).gates)).not.toContain('faceInFrame:notCentred');
  });

  it('a face cut by the frame', async () => {
    const cut = transformImage(face(), { dx: 0.45, dy: 0, scale: 1, rotation: 0 });
    const faces = await model.detect(cut);
    if (faces.length === 0)
      return expect(failing(analysePhoto(cut, faces, { source: 'upload' }).gates)[0]).toBe('oneFace:noFace');
    expect(failing(analysePhoto(cut, faces, { source: 'upload' }).gates)).toContain('faceInFrame:faceCut');
  });
});
