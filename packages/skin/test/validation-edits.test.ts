import { beforeAll, describe, expect, it } from 'vitest';
import { ZONE_IDS, type ZoneId } from '../src/contract.ts';
import { nodeFaceModel } from './node-face-model.ts';
import { addHighlight, addRedness, addSpots, darkenUnderEyes } from './phantoms.ts';
import { analyseEdited, floorOf, loadPhotos, score, type ValidationPhoto } from './validation.ts';

// Each metric responds to what its name says, where it happens, on every real photo the gates accept
// (docs/skin-validation.md; the full report: bench/skin-validation.ts). The edits are phantoms placed by
// the pipeline's own zone masks (test/phantoms.ts); the face found on the original is reused.

const REDNESS_ZONES: ZoneId[] = ['forehead', 'leftCheek', 'rightCheek', 'nose', 'chin', 'lipContour'];

let photos: ValidationPhoto[];
/** The accepted photos (in each suite's beforeAll: nothing when it is skipped). */
async function load() {
  photos = (await loadPhotos(await nodeFaceModel())).accepted;
  expect(photos.length).toBeGreaterThanOrEqual(25);
}

/**
 * The analysis after sixteen 2 mm spots (−10 L*) on the zone; null when the zone is too small for them
 * (a fringe over the forehead), which is no test of the metric.
 */
async function withSixteenSpots(photo: ValidationPhoto, zone: ZoneId) {
  const { image, placed } = addSpots(photo.image, photo.face, zone, {
    count: 16,
    diameterMm: 2,
    deltaL: -10,
    seed: 16,
  });
  return placed.length < 16 ? null : (await analyseEdited(photo, image))!;
}

/** Sixteen spots on the zone lower its evenness by ≥ 3 points and ≥ 2 × its floor, on every photo. */
async function sixteenSpotsLowerEvenness(zone: ZoneId) {
  for (const photo of photos) {
    const after = await withSixteenSpots(photo, zone);
    if (!after) continue;
    const drop = score(photo.analysis, 'evenness', zone)! - score(after, 'evenness', zone)!;
    expect(drop, photo.name).toBeGreaterThanOrEqual(Math.max(3, 2 * floorOf('evenness', zone)));
  }
}

describe('on every real photo the gates accept', () => {
  beforeAll(load, 120_000);

  it('Δa* +4 on one cheek raises its redness by ≥ 8, and no other zone by half its floor', async () => {
    for (const photo of photos) {
      const after = (await analyseEdited(photo, addRedness(photo.image, photo.face, 'leftCheek', 4)))!;
      const change = (zone: ZoneId) => score(after, 'redness', zone)! - score(photo.analysis, 'redness', zone)!;
      expect(change('leftCheek'), photo.name).toBeGreaterThanOrEqual(8);
      for (const zone of REDNESS_ZONES.filter((z) => z !== 'leftCheek'))
        expect(Math.abs(change(zone)), `${photo.name} ${zone}`).toBeLessThan(floorOf('redness', zone) / 2);
    }
  });

  it('−4 L* under the eyes raises dark circles by ≥ 8, from any start', async () => {
    for (const photo of photos) {
      const after = (await analyseEdited(photo, darkenUnderEyes(photo.image, photo.face, -4)))!;
      const before = score(photo.analysis, 'darkCircles', 'eyeArea')!;
      expect(score(after, 'darkCircles', 'eyeArea')! - before, `${photo.name} from ${before}`).toBeGreaterThanOrEqual(
        8,
      );
    }
  });

  it.each(['leftCheek', 'forehead'] as const)(
    'sixteen 2 mm spots (−10 L*) on the %s leave its texture within its floor',
    async (zone) => {
      for (const photo of photos) {
        const after = await withSixteenSpots(photo, zone);
        if (!after) continue;
        const texture = score(after, 'texture', zone)! - score(photo.analysis, 'texture', zone)!;
        expect(Math.abs(texture), photo.name).toBeLessThanOrEqual(floorOf('texture', zone));
      }
    },
  );

  // Met since skin-9, which no longer counts the dips on the edge of hair and shadow as spots: the
  // cheek's floor fell from 3.1 to 1.9 (docs/skin-analysis.md § What changed in `skin-9`).
  it('sixteen 2 mm spots (−10 L*) on the left cheek lower its evenness by ≥ 3 and ≥ 2 floors', () =>
    sixteenSpotsLowerEvenness('leftCheek'));

  it('every zone is measured (the checks above read each one)', () => {
    for (const photo of photos) expect(photo.analysis.zones.map((z) => z.zone)).toEqual([...ZONE_IDS]);
  });
});

// NOT YET MET by analysis skin-9 (docs/skin-analysis.md § Limits; ADR 015): each check below fails on
// at least one photo — the figures per photo and per dose are in docs/skin-validation.md (§ Sixteen
// spots, photo by photo; the tuning photos in docs/skin-analysis.md § Limits). Skipped, not weakened:
// un-skip each `it` as the metric that meets it lands.
describe.skip('on every real photo the gates accept (thresholds not yet met: docs/skin-validation.md)', () => {
  beforeAll(load, 120_000);

  it('sixteen 2 mm spots (−10 L*) on the forehead lower its evenness by ≥ 3 and ≥ 2 floors', () =>
    sixteenSpotsLowerEvenness('forehead'));

  it('a highlight over 10 % of the nose raises its shine by ≥ 15', async () => {
    for (const photo of photos) {
      const after = (await analyseEdited(photo, addHighlight(photo.image, photo.face, 'nose', { share: 0.1 }).image))!;
      expect(
        score(after, 'shine', 'nose')! - score(photo.analysis, 'shine', 'nose')!,
        photo.name,
      ).toBeGreaterThanOrEqual(15);
    }
  });
});
