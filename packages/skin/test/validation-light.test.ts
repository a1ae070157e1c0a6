import { beforeAll, describe, expect, it } from 'vitest';
import { analysePhoto } from '../src/analyse.ts';
import type { MetricId } from '../src/contract.ts';
import { nodeFaceModel, type NodeFaceModel } from './node-face-model.ts';
import { addHighlight, INVARIANCE_SET, lightGradient, lighterSkin, scaleSkinLightness } from './phantoms.ts';
import {
  analyseEdited,
  cellsOf,
  changes,
  KNOWN_SENSITIVITIES,
  knownSensitivity,
  loadPhotos,
  score,
  type ValidationPhoto,
} from './validation.ts';

// What the metrics must ignore (docs/skin-validation.md): a slope of light, the complexion, and the
// photo-wide changes of a re-capture — or a gate refuses the photo with the right reason.

let model: NodeFaceModel;
let photos: ValidationPhoto[];
/** Loads the face model and the accepted photos (in each suite's beforeAll: nothing when it is skipped). */
async function load() {
  model = await nodeFaceModel();
  photos = (await loadPhotos(model)).accepted;
}

/** Every cell of `metric` on each photo's darker versions (skin L* ×0.7, ×0.55) within 2 floors of the photo's. */
async function darkerWithinTwoFloors(metric: MetricId) {
  for (const photo of photos)
    for (const factor of [0.7, 0.55]) {
      const after = (await analyseEdited(photo, scaleSkinLightness(photo.image, photo.face, factor)))!;
      for (const cell of changes(photo.analysis, after))
        if (cell.metric === metric)
          expect(Math.abs(cell.delta), `${photo.name} ×${factor} ${cell.place}`).toBeLessThanOrEqual(2 * cell.floor);
    }
}

describe('on every real photo the gates accept', () => {
  beforeAll(load, 120_000);

  it('a ±10 % slope of light moves no shine cell beyond its floor, or the gates ask for even light', async () => {
    for (const photo of photos)
      for (const [direction, amount] of [
        ['vertical', 0.1],
        ['vertical', -0.1],
        ['horizontal', 0.1],
        ['horizontal', -0.1],
      ] as const) {
        // The face found on the original: a slope of light changes no geometry, and the face model's own
        // pose estimate under a side light (face-005 reads as turned) is the report's to show
        // (docs/skin-validation.md § Invariance re-detects every changed photo).
        const image = lightGradient(photo.image, direction, amount);
        const outcome = analysePhoto(image, [photo.face], { source: 'upload' });
        if (!outcome.ok) {
          expect(outcome.gates.filter((g) => !g.passed).map((g) => g.problem)).toEqual(['unevenLight']);
          continue;
        }
        for (const { place, metric, delta, floor } of changes(photo.analysis, outcome.analysis))
          if (metric === 'shine')
            expect(Math.abs(delta), `${photo.name} ${direction} ${amount} ${place}`).toBeLessThanOrEqual(floor);
      }
    // Four analyses of each of 33 photos: about 45 s alone, more beside the other projects.
  }, 300_000);

  it(
    'a darker complexion (skin L* ×0.7, ×0.55) keeps texture within 2 floors',
    () => darkerWithinTwoFloors('texture'),
    300_000,
  );
});

// NOT YET MET by analysis skin-9 (docs/skin-analysis.md § Limits; ADR 015): each check below fails on
// at least one photo — the figures are in docs/skin-validation.md (§ Skin tone). Skipped,
// not weakened: un-skip each `it` as the metric that meets it lands.
describe.skip('on every real photo the gates accept (thresholds not yet met: docs/skin-validation.md)', () => {
  beforeAll(load, 120_000);

  it('a darker complexion (skin L* ×0.7, ×0.55) keeps evenness within 2 floors', () =>
    darkerWithinTwoFloors('evenness'));

  it('the same highlight reads within a factor 2 on a lighter and a darker (×0.55) complexion', async () => {
    for (const photo of photos) {
      const rise = async (image: typeof photo.image) => {
        const before = (await analyseEdited(photo, image))!;
        const after = (await analyseEdited(photo, addHighlight(image, photo.face, 'nose', { share: 0.1 }).image))!;
        return score(after, 'shine', 'nose')! - score(before, 'shine', 'nose')!;
      };
      const light = await rise(lighterSkin(photo.image, photo.face));
      const dark = await rise(scaleSkinLightness(photo.image, photo.face, 0.55));
      expect(Math.min(light, dark), photo.name).toBeGreaterThan(0);
      expect(Math.max(light, dark) / Math.min(light, dark), `${photo.name}: ${light} / ${dark}`).toBeLessThanOrEqual(2);
    }
  });
});

describe('the known sensitivities', () => {
  it('name changes of the invariance set, one entry per change and metric', () => {
    const names = new Set(INVARIANCE_SET.map((variant) => variant.name));
    for (const known of KNOWN_SENSITIVITIES) expect(names.has(known.variant), known.variant).toBe(true);
    const ids = KNOWN_SENSITIVITIES.map((known) => `${known.variant}|${known.metric}`);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('the invariance set, on four photos from light to dark', () => {
  beforeAll(load, 120_000);

  it('≥ 90 % of cells stay within their floor; each change beyond is refused with its reason or a known sensitivity', async () => {
    const sample = ['face-sample6-a.jpg', 'face-044.jpg', 'face-006.jpg', 'face-061.jpg'].map((name) =>
      photos.find((p) => p.name === name)!,
    );
    let within = 0;
    let total = 0;
    const unexplained: string[] = [];
    for (const photo of sample)
      for (const variant of INVARIANCE_SET) {
        const image = variant.apply(photo.image);
        const outcome = analysePhoto(image, await model.detect(image), { source: 'upload' });
        if (!outcome.ok) continue; // refused: the photo is not measured, so nothing moved
        const cells = changes(photo.analysis, outcome.analysis, variant.swapsSides);
        // A cell the changed photo no longer reports is no more explained than one that moved.
        if (cells.length < cellsOf(photo.analysis).length)
          unexplained.push(`${photo.name} ${variant.name}: a cell is missing`);
        for (const { place, metric, delta, floor } of cells) {
          total++;
          if (Math.abs(delta) <= floor) within++;
          else if (!knownSensitivity(variant.name, metric, Math.abs(delta) / floor))
            unexplained.push(`${photo.name} ${variant.name} ${place}/${metric} ${Math.abs(delta).toFixed(1)}`);
        }
      }
    expect(within / total).toBeGreaterThanOrEqual(0.9);
    expect(unexplained).toEqual([]);
  });
});
