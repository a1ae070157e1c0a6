import { beforeAll, describe, expect, it } from 'vitest';
import { METRIC_IDS } from '../src/contract.ts';
import { analysePhoto } from '../src/analyse.ts';
import floors from '../src/data/noise-floors.json' with { type: 'json' };
import { readImage } from './images.ts';
import { nodeFaceModel, type NodeFaceModel } from './node-face-model.ts';
import { jitterImage, randomJitter, seededRandom } from './variants.ts';

// Re-captures of the same face (capture jitter of bench/skin-noise-floor.ts) give the same face-wide
// metrics within the shipped noise floors. A floor is a 95th percentile over many re-captures, so a
// single copy may exceed it a little: allowed up to 1.5 × the floor + 0.5.

let model: NodeFaceModel;
beforeAll(async () => {
  model = await nodeFaceModel();
});

describe('metrics under capture jitter', () => {
  it.each(['face-sample6-a.jpg', 'face-sample3-a.jpg'])('%s: re-captures stay within the noise floor', async (file) => {
    const image = readImage(file);
    const original = analysePhoto(image, await model.detect(image), { source: 'upload' });
    if (!original.ok) throw new Error('refused');
    const random = seededRandom(42);
    for (let k = 0; k < 3; k++) {
      const copy = jitterImage(image, randomJitter(random));
      const result = analysePhoto(copy, await model.detect(copy), { source: 'upload' });
      if (!result.ok) continue;
      for (const metric of METRIC_IDS) {
        const floor = floors.overall[metric];
        const change = Math.abs(result.analysis.overall[metric] - original.analysis.overall[metric]);
        expect(change, `${metric} copy ${k}`).toBeLessThanOrEqual(1.5 * floor + 0.5);
      }
    }
  });

  it('the shipped floors cover every metric and are at most 10 points', () => {
    for (const metric of METRIC_IDS) {
      expect(floors.overall[metric]).toBeGreaterThan(0);
      expect(floors.overall[metric]).toBeLessThanOrEqual(10);
    }
  });
});
