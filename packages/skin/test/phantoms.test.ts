import { beforeAll, describe, expect, it } from 'vitest';
import { ZONE_IDS, type DetectedFace, type RgbaImage, type ZoneId } from '../src/contract.ts';
import { linearToSrgb, srgb8ToLab, SRGB8_TO_LINEAR } from '../src/colour.ts';
import { gaussianBlur } from '../src/filters.ts';
import { countMask, dilateMask, polygonMask } from '../src/mask.ts';
import { faceCrop, faceScale, LEFT_EYE, LIPS_OUTER, RIGHT_EYE, zoneMasks } from '../src/zones.ts';
import { readImage } from './images.ts';
import { nodeFaceModel } from './node-face-model.ts';
import {
  addHighlight,
  addRedness,
  addSpots,
  addTexture,
  darkenUnderEyes,
  exposeLinear,
  faceSkinWeights,
  flipHorizontal,
  INVARIANCE_SET,
  jpeg420,
  lightGradient,
  lighterSkin,
  rescaleRoundTrip,
  rotate,
  scaleSkinLightness,
  sensorNoise,
  sourcePxPerMm,
  whiteBalance,
  zoneWeights,
} from './phantoms.ts';
import { reencodeJpeg } from './variants.ts';

// The phantoms on a real face (face-sample6-a.jpg: 578 × 578, ≈ 1.66 px/mm on the face). The face
// model runs once; every edit is read back in the photo's own pixels.

let image: RgbaImage;
let face: DetectedFace;
let pristine: Uint8ClampedArray;

beforeAll(async () => {
  const model = await nodeFaceModel();
  image = readImage('face-sample6-a.jpg');
  pristine = image.data.slice();
  const faces = await model.detect(image);
  expect(faces).toHaveLength(1);
  face = faces[0]!;
});

const labAt = (img: RgbaImage, i: number) => srgb8ToLab(img.data[i * 4]!, img.data[i * 4 + 1]!, img.data[i * 4 + 2]!);

/** Mean and RMS of the change of L* (0), a* (1) or b* (2) over the pixels whose weight is at least `least`. */
function change(before: RgbaImage, after: RgbaImage, weights: Float32Array, channel: 0 | 1 | 2, least = 0.99) {
  let sum = 0;
  let squares = 0;
  let n = 0;
  for (let i = 0; i < weights.length; i++) {
    if (weights[i]! < least) continue;
    const d = labAt(after, i)[channel] - labAt(before, i)[channel];
    sum += d;
    squares += d * d;
    n++;
  }
  return { mean: sum / n, rms: Math.sqrt(squares / n), n };
}

/** Pixels changed (any byte); throws if a pixel of weight 0 changed. */
function changedOnlyWhereWeighted(before: RgbaImage, after: RgbaImage, weights: Float32Array): number {
  expect(after.width).toBe(before.width);
  expect(after.height).toBe(before.height);
  let changed = 0;
  let strayed = 0;
  for (let i = 0; i < weights.length; i++) {
    const p = i * 4;
    const same =
      after.data[p] === before.data[p] &&
      after.data[p + 1] === before.data[p + 1] &&
      after.data[p + 2] === before.data[p + 2] &&
      after.data[p + 3] === before.data[p + 3];
    if (same) continue;
    changed++;
    if (weights[i] === 0) strayed++;
  }
  expect(strayed).toBe(0);
  return changed;
}

const median = (values: number[]) => values.sort((p, q) => p - q)[values.length >> 1]!;

/** Whether two byte arrays are equal (Vitest's deep equality takes seconds on a photo's typed array). */
const equalBytes = (a: Uint8ClampedArray, b: Uint8ClampedArray) =>
  Buffer.compare(new Uint8Array(a.buffer, a.byteOffset, a.length), new Uint8Array(b.buffer, b.byteOffset, b.length)) ===
  0;
const sameBytes = (a: RgbaImage, b: RgbaImage) =>
  a.width === b.width && a.height === b.height && equalBytes(a.data, b.data);

describe('zone weights in the photo', () => {
  it('are 1 deep inside each zone, exactly 0 beyond 3 mm of it, and 0–1 between', () => {
    const crop = faceCrop(face, 2);
    const masks = zoneMasks(crop);
    for (const zone of ZONE_IDS) {
      const weights = zoneWeights(image, face, zone);
      const near = dilateMask(masks[zone], crop.width, crop.height, 3 * crop.pxPerMm);
      let ones = 0;
      let area = 0;
      for (let y = 0; y < image.height; y++)
        for (let x = 0; x < image.width; x++) {
          const w = weights[y * image.width + x]!;
          if (!(w >= 0 && w <= 1)) throw new Error(`${zone}: weight ${w} at (${x}, ${y})`);
          if (w === 1) ones++;
          if (w >= 0.5) area++;
          const u = Math.floor(crop.fromSource.a * (x + 0.5) + crop.fromSource.b * (y + 0.5) + crop.fromSource.c);
          const v = Math.floor(crop.fromSource.d * (x + 0.5) + crop.fromSource.e * (y + 0.5) + crop.fromSource.f);
          const inside = u >= 0 && v >= 0 && u < crop.width && v < crop.height && near[v * crop.width + u] !== 0;
          if (!inside && w !== 0) throw new Error(`${zone}: weight ${w} at (${x}, ${y}), beyond 3 mm of the zone`);
        }
      // Much of the zone is deep inside the 0.7 mm feather: 20 % of the lip contour (a thin ring with
      // jagged edges), 38 % of the eye area (two thin bands), 47 % of the chin, 60–70 % of the others.
      expect(ones, zone).toBeGreaterThan((zone === 'lipContour' ? 0.15 : 0.3) * area);
    }
  });

  it('cover the area of the crop masks, scaled to the photo (within 15 %)', () => {
    const crop = faceCrop(face, 2);
    const masks = zoneMasks(crop);
    const scale = (sourcePxPerMm(face) / crop.pxPerMm) ** 2;
    for (const zone of ZONE_IDS) {
      const weights = zoneWeights(image, face, zone);
      let area = 0;
      for (const w of weights) if (w >= 0.5) area++;
      const expected = countMask(masks[zone]) * scale;
      expect(Math.abs(area / expected - 1), zone).toBeLessThan(0.15);
    }
  });

  it('skinOnly keeps part of the zone; a list of zones is their union', () => {
    for (const zone of ['forehead', 'leftCheek', 'eyeArea'] as const) {
      const all = zoneWeights(image, face, zone);
      const skin = zoneWeights(image, face, zone, { skinOnly: true });
      let allArea = 0;
      let skinArea = 0;
      let above = 0;
      for (let i = 0; i < all.length; i++) {
        if (all[i]! >= 0.5) allArea++;
        if (skin[i]! >= 0.5) skinArea++;
        if (skin[i]! > all[i]! + 1e-5) above++;
      }
      expect(above, zone).toBe(0);
      expect(skinArea, zone).toBeGreaterThan(0.5 * allArea);
    }
    const left = zoneWeights(image, face, 'leftCheek');
    const right = zoneWeights(image, face, 'rightCheek');
    const both = zoneWeights(image, face, ['leftCheek', 'rightCheek']);
    let worst = 0;
    for (let i = 0; i < both.length; i++) worst = Math.max(worst, Math.abs(both[i]! - left[i]! - right[i]!));
    expect(worst).toBeLessThan(1e-4);
  });

  it('the photo scale is the iris scale', () => {
    expect(sourcePxPerMm(face)).toBe(faceScale(face));
    expect(sourcePxPerMm(face)).toBeGreaterThan(1.4);
    expect(sourcePxPerMm(face)).toBeLessThan(1.8);
  });
});

describe('edits in CIELAB, read back at their dose', () => {
  it.each([1, 2, 4, 6, 8])('redness Δa* +%i on the left cheek', (dose) => {
    const weights = zoneWeights(image, face, 'leftCheek', { skinOnly: true });
    const out = addRedness(image, face, 'leftCheek', dose);
    expect(changedOnlyWhereWeighted(image, out, weights)).toBeGreaterThan(1000);
    // ±0.5 allows for 8-bit rounding; the rounding at random keeps the mean far closer (nearest
    // rounding read +1 back as +1.36 on this cheek).
    expect(Math.abs(change(image, out, weights, 1).mean - dose)).toBeLessThan(0.25);
    expect(Math.abs(change(image, out, weights, 0).mean)).toBeLessThan(0.1);
    expect(Math.abs(change(image, out, weights, 2).mean)).toBeLessThan(0.2);
  });

  it('redness on the forehead and the chin', () => {
    for (const zone of ['forehead', 'chin'] as const) {
      const weights = zoneWeights(image, face, zone, { skinOnly: true });
      const out = addRedness(image, face, zone, 4);
      changedOnlyWhereWeighted(image, out, weights);
      expect(Math.abs(change(image, out, weights, 1).mean - 4), zone).toBeLessThan(0.25);
    }
  });

  it.each([-3, -6, -10])(
    'under-eyes ΔL* %i, over the eye area as drawn (as the dark-circles score reads it)',
    (dose) => {
      const weights = zoneWeights(image, face, 'eyeArea');
      const out = darkenUnderEyes(image, face, dose);
      expect(changedOnlyWhereWeighted(image, out, weights)).toBeGreaterThan(500);
      expect(Math.abs(change(image, out, weights, 0).mean - dose)).toBeLessThan(0.5);
      expect(Math.abs(change(image, out, weights, 1).mean)).toBeLessThan(0.3);
    },
  );

  it.each([0.5, 1, 2, 3, 4])('texture of RMS %f L* on the right cheek', (amplitude) => {
    const weights = zoneWeights(image, face, 'rightCheek', { skinOnly: true });
    const out = addTexture(image, face, 'rightCheek', amplitude, 7);
    changedOnlyWhereWeighted(image, out, weights);
    const L = change(image, out, weights, 0);
    expect(Math.abs(L.rms / amplitude - 1)).toBeLessThan(0.25);
    expect(Math.abs(L.mean)).toBeLessThan(0.05 * amplitude + 0.05);
    expect(Math.abs(change(image, out, weights, 1).mean)).toBeLessThan(0.2);
  });

  it('texture is band-pass: little of it is left at 4 mm', () => {
    const weights = zoneWeights(image, face, 'rightCheek', { skinOnly: true });
    const out = addTexture(image, face, 'rightCheek', 3, 7);
    const delta = new Float32Array(weights.length);
    const inside = new Float32Array(weights.length);
    for (let i = 0; i < delta.length; i++)
      if (weights[i]! >= 0.99) {
        delta[i] = labAt(out, i)[0] - labAt(image, i)[0];
        inside[i] = 1;
      }
    // The change's local mean over σ 4 mm (within the zone only): the band between 0.5 and 2 mm keeps
    // a few per cent of its RMS there (white noise of the same RMS keeps ≈ 5 % at 1.7 px/mm).
    const sigma = 4 * sourcePxPerMm(face);
    const sum = gaussianBlur(delta, image.width, image.height, sigma);
    const share = gaussianBlur(inside, image.width, image.height, sigma);
    let squares = 0;
    let n = 0;
    for (let i = 0; i < delta.length; i++)
      if (inside[i] === 1 && share[i]! > 0.5) {
        squares += (sum[i]! / share[i]!) ** 2;
        n++;
      }
    expect(Math.sqrt(squares / n)).toBeLessThan(0.05 * 3);
    // Seeded: the same seed, the same phantom; another seed, another.
    expect(sameBytes(addTexture(image, face, 'rightCheek', 3, 7), out)).toBe(true);
    expect(sameBytes(addTexture(image, face, 'rightCheek', 3, 8), out)).toBe(false);
  });
});

describe('dark spots', () => {
  it.each(['leftCheek', 'rightCheek'] as const)(
    '16 spots of 2 mm on the %s: all placed, apart, inside, at depth',
    (zone) => {
      const weights = zoneWeights(image, face, zone, { skinOnly: true });
      const pxPerMm = sourcePxPerMm(face);
      for (const deltaL of [-8, -15]) {
        const { image: out, placed } = addSpots(image, face, zone, { count: 16, diameterMm: 2, deltaL, seed: 3 });
        expect(placed).toHaveLength(16);
        changedOnlyWhereWeighted(image, out, weights);
        for (const [k, spot] of placed.entries()) {
          const i = Math.floor(spot.y) * image.width + Math.floor(spot.x);
          expect(weights[i]!).toBeGreaterThanOrEqual(0.99);
          expect(Math.abs(labAt(out, i)[0] - labAt(image, i)[0] - deltaL)).toBeLessThan(1.5);
          expect(Math.abs(labAt(out, i)[1] - labAt(image, i)[1])).toBeLessThan(1.5);
          for (const other of placed.slice(k + 1))
            expect(Math.hypot(other.x - spot.x, other.y - spot.y)).toBeGreaterThanOrEqual(2 * 2 * pxPerMm - 1e-9);
        }
        // Nothing changes farther than a spot's soft edge (1.15 radii, and a pixel) from a centre.
        const reach = 1.15 * pxPerMm + 1;
        for (let i = 0; i < weights.length; i++) {
          if (out.data[i * 4] === image.data[i * 4] && out.data[i * 4 + 1] === image.data[i * 4 + 1]) continue;
          const x = (i % image.width) + 0.5;
          const y = Math.floor(i / image.width) + 0.5;
          expect(placed.some((s) => Math.hypot(s.x - x, s.y - y) <= reach)).toBe(true);
        }
      }
    },
  );

  it('a zone that cannot hold them all gets as many as fit; the seed decides where', () => {
    const many = addSpots(image, face, 'nose', { count: 200, diameterMm: 3, deltaL: -10, seed: 1 });
    expect(many.placed.length).toBeGreaterThan(0);
    expect(many.placed.length).toBeLessThan(200);
    const again = addSpots(image, face, 'nose', { count: 200, diameterMm: 3, deltaL: -10, seed: 1 });
    expect(again.placed).toEqual(many.placed);
    expect(sameBytes(again.image, many.image)).toBe(true);
    const other = addSpots(image, face, 'leftCheek', { count: 4, diameterMm: 1.5, deltaL: -10, seed: 2 });
    const first = addSpots(image, face, 'leftCheek', { count: 4, diameterMm: 1.5, deltaL: -10, seed: 1 });
    expect(other.placed).not.toEqual(first.placed);
  });
});

describe('specular highlight', () => {
  const zones: ZoneId[] = ['forehead', 'leftCheek', 'nose', 'chin'];
  it.each(zones)('covers the share asked of the %s, in white light, inside the zone', (zone) => {
    const weights = zoneWeights(image, face, zone, { skinOnly: true });
    for (const share of [0.05, 0.1, 0.2, 0.3]) {
      const { image: out, coveredShare } = addHighlight(image, face, zone, { share });
      expect(Math.abs(coveredShare / share - 1), `${zone} ${share}`).toBeLessThan(0.3);
      changedOnlyWhereWeighted(image, out, weights);
      let coloured = 0;
      let beyondWeight = 0;
      for (let i = 0; i < weights.length; i++) {
        const rise = [0, 1, 2].map(
          (c) => SRGB8_TO_LINEAR[out.data[i * 4 + c]!]! - SRGB8_TO_LINEAR[image.data[i * 4 + c]!]!,
        );
        // Never more light than the zone's weight lets in (0.25 × w, and half a code of rounding)…
        if (Math.max(...rise) > 0.25 * weights[i]! + 0.005) beyondWeight++;
        // …and equal in linear R, G and B (where no channel clipped).
        if (Math.max(...rise) < 0.1 || [0, 1, 2].some((c) => out.data[i * 4 + c] === 255)) continue;
        if (Math.max(...rise) - Math.min(...rise) > 0.01) coloured++;
      }
      expect(beyondWeight, `${zone} ${share}`).toBe(0);
      expect(coloured, `${zone} ${share}`).toBe(0);
    }
  });

  it('lies along the nose, across the forehead (the upright face’s axes)', () => {
    const t = faceCrop(face, 2).fromSource;
    const spread = (zone: ZoneId) => {
      const { image: out } = addHighlight(image, face, zone, { share: 0.2 });
      let n = 0;
      let su = 0;
      let sv = 0;
      let mu = 0;
      let mv = 0;
      const points: [number, number][] = [];
      for (let i = 0; i < out.data.length / 4; i++) {
        if (SRGB8_TO_LINEAR[out.data[i * 4 + 1]!]! - SRGB8_TO_LINEAR[image.data[i * 4 + 1]!]! < 0.1) continue;
        const x = (i % image.width) + 0.5;
        const y = Math.floor(i / image.width) + 0.5;
        const u = t.a * x + t.b * y + t.c;
        const v = t.d * x + t.e * y + t.f;
        points.push([u, v]);
        mu += u;
        mv += v;
        n++;
      }
      mu /= n;
      mv /= n;
      for (const [u, v] of points) {
        su += (u - mu) ** 2;
        sv += (v - mv) ** 2;
      }
      return Math.sqrt(sv / su);
    };
    expect(spread('nose')).toBeGreaterThan(1.3);
    expect(spread('forehead')).toBeLessThan(0.5);
  });
});

describe('skin tone simulation', () => {
  /** L* and hue angle of the zones' skin (weight ≥ 0.99), before and after. */
  function skinReadings(out: RgbaImage, zones: ZoneId | readonly ZoneId[] = ZONE_IDS) {
    const weights = zoneWeights(image, face, zones, { skinOnly: true });
    const before: number[] = [];
    const after: number[] = [];
    const hueBefore: number[] = [];
    const hueAfter: number[] = [];
    for (let i = 0; i < weights.length; i++) {
      if (weights[i]! < 0.99) continue;
      const a = labAt(image, i);
      const b = labAt(out, i);
      before.push(a[0]);
      after.push(b[0]);
      hueBefore.push((Math.atan2(a[2], a[1]) * 180) / Math.PI);
      hueAfter.push((Math.atan2(b[2], b[1]) * 180) / Math.PI);
    }
    return { L: median(before), scaled: median(after), hue: median(hueBefore), newHue: median(hueAfter) };
  }

  it.each([0.7, 0.55])('L* × %f on the skin, hue kept, far from the face unchanged', (factor) => {
    const out = scaleSkinLightness(image, face, factor);
    const r = skinReadings(out);
    expect(Math.abs(r.scaled - factor * r.L)).toBeLessThan(1.5);
    expect(Math.abs(r.newHue - r.hue)).toBeLessThan(2);
    changedOnlyWhereWeighted(image, out, faceSkinWeights(image, face));
    // Beyond the face box grown by a quarter, not a byte changed.
    const [bx, by, bw, bh] = face.box;
    for (let y = 0; y < image.height; y++)
      for (let x = 0; x < image.width; x++) {
        if (x > bx - bw / 4 && x < bx + bw * 1.25 && y > by - bh / 4 && y < by + bh * 1.25) continue;
        const p = (y * image.width + x) * 4;
        if (
          out.data[p] !== image.data[p] ||
          out.data[p + 1] !== image.data[p + 1] ||
          out.data[p + 2] !== image.data[p + 2]
        )
          throw new Error(`changed far from the face at (${x}, ${y})`);
      }
  });

  it('every zone takes the whole change (no seam for the metrics to read as unevenness or dark circles)', () => {
    const face0 = faceSkinWeights(image, face);
    for (const zone of ZONE_IDS) {
      // All of the zone's skin, to its edge (a feather across the skin's edge left 10–35 % of it below 0.99).
      const zoneSkin = zoneWeights(image, face, zone, { skinOnly: true, featherMm: 0 });
      let n = 0;
      let partial = 0;
      for (let i = 0; i < zoneSkin.length; i++) {
        if (zoneSkin[i]! < 0.5) continue;
        n++;
        if (face0[i]! < 0.99) partial++;
      }
      expect(partial / n, zone).toBeLessThan(0.03);
    }
    const out = scaleSkinLightness(image, face, 0.55);
    for (const zone of ZONE_IDS) {
      const r = skinReadings(out, zone);
      expect(Math.abs(r.scaled / r.L - 0.55), zone).toBeLessThan(0.02);
    }
  });

  it('the skin just under the jaw, which the analysis crops with the chin, darkens with it (no edge there)', () => {
    const out = scaleSkinLightness(image, face, 0.55);
    // A disc of 1 mm, 2 mm below the lowest point of the chin (landmark 152), straight down the face.
    const pxPerMm = faceScale(face);
    const [cx, cy] = face.mesh[152]!;
    const [tx, ty] = face.mesh[10]!; // the top of the forehead: "down" is away from it
    const length = Math.hypot(cx - tx, cy - ty);
    const [x0, y0] = [cx + ((cx - tx) / length) * 2 * pxPerMm, cy + ((cy - ty) / length) * 2 * pxPerMm];
    const ratios: number[] = [];
    for (let y = Math.floor(y0 - pxPerMm); y <= y0 + pxPerMm; y++)
      for (let x = Math.floor(x0 - pxPerMm); x <= x0 + pxPerMm; x++)
        if ((x - x0) ** 2 + (y - y0) ** 2 <= pxPerMm ** 2) {
          const i = y * image.width + x;
          ratios.push(labAt(out, i)[0] / labAt(image, i)[0]);
        }
    expect(median(ratios)).toBeCloseTo(0.55, 1);
  });

  it('the lips darken with the skin; the eyes’ whites do not', () => {
    const out = scaleSkinLightness(image, face, 0.55);
    const inside = (loop: readonly number[]) =>
      polygonMask(image.width, image.height, [loop.map((i) => [face.mesh[i]![0], face.mesh[i]![1]] as const)]);
    /** The `quantile` of L* after ÷ L* before over the mask. */
    const ratio = (mask: Uint8Array, quantile: number) => {
      const ratios: number[] = [];
      for (let i = 0; i < mask.length; i++) if (mask[i] !== 0) ratios.push(labAt(out, i)[0] / labAt(image, i)[0]);
      return ratios.sort((p, q) => p - q)[Math.floor(quantile * ratios.length)]!;
    };
    // All of the lips, not only most (their pixels the skin test leaves out are filled in: 0.71 without).
    expect(Math.abs(ratio(inside(LIPS_OUTER), 0.9) - 0.55)).toBeLessThan(0.05);
    for (const eye of [RIGHT_EYE, LEFT_EYE]) expect(Math.abs(ratio(inside(eye), 0.5) - 1)).toBeLessThan(0.03);
  });

  it('lighter skin: L* → 100 − (100 − L*) × 0.7', () => {
    const r = skinReadings(lighterSkin(image, face));
    expect(Math.abs(r.scaled - (100 - (100 - r.L) * 0.7))).toBeLessThan(1.5);
    expect(Math.abs(r.newHue - r.hue)).toBeLessThan(2);
  });
});

describe('the invariance set', () => {
  /** A flat mid-grey image, and the face photo's central part (fast). */
  const grey = (value: number, width = 64, height = 48): RgbaImage => ({
    width,
    height,
    data: new Uint8ClampedArray(width * height * 4).fill(value),
  });

  it('identities: exposure × 1, white balance [1, 1, 1], no gradient, flipped twice', () => {
    expect(sameBytes(exposeLinear(image, 1), image)).toBe(true);
    expect(sameBytes(whiteBalance(image, [1, 1, 1]), image)).toBe(true);
    expect(sameBytes(lightGradient(image, 'vertical', 0), image)).toBe(true);
    expect(sameBytes(lightGradient(image, 'horizontal', 0), image)).toBe(true);
    expect(sameBytes(flipHorizontal(flipHorizontal(image)), image)).toBe(true);
    const flipped = flipHorizontal(image);
    expect(Array.from(flipped.data.subarray(0, 4))).toEqual(
      Array.from(image.data.subarray((image.width - 1) * 4, image.width * 4)),
    );
    expect(sameBytes(flipped, image)).toBe(false);
  });

  it('exposure and white balance scale linear light', () => {
    // Every code from 20 to 180 (none clips at × 1.2): rounding to whole codes averages out.
    const codes = grey(0, 161, 1);
    for (let x = 0; x < 161; x++) codes.data.fill(20 + x, x * 4, x * 4 + 3);
    const mean = (img: RgbaImage, c: number) => {
      let sum = 0;
      for (let p = c; p < img.data.length; p += 4) sum += SRGB8_TO_LINEAR[img.data[p]!]!;
      return sum / (img.data.length / 4);
    };
    for (const factor of [0.8, 0.9, 1.1, 1.2])
      expect(Math.abs(mean(exposeLinear(codes, factor), 1) / mean(codes, 1) / factor - 1)).toBeLessThan(0.002);
    const warm = whiteBalance(codes, [1.06, 1, 0.94]);
    expect(Math.abs(mean(warm, 0) / mean(codes, 0) / 1.06 - 1)).toBeLessThan(0.002);
    expect(mean(warm, 1)).toBe(mean(codes, 1));
    expect(Math.abs(mean(warm, 2) / mean(codes, 2) / 0.94 - 1)).toBeLessThan(0.002);
  });

  it('a light gradient ramps from 1 − amount to 1 + amount across the photo', () => {
    const flat = grey(118, 64, 200);
    const code = (img: RgbaImage, x: number, y: number) => img.data[(y * img.width + x) * 4 + 1]!;
    /** The nearest code to linear(118) × gain. */
    const expected = (gain: number) => Math.round(linearToSrgb(SRGB8_TO_LINEAR[118]! * gain) * 255);
    const down = lightGradient(flat, 'vertical', 0.1);
    expect(code(down, 10, 0)).toBe(expected(1 - 0.1 * (1 - 1 / 200)));
    expect(code(down, 10, 199)).toBe(expected(1 + 0.1 * (1 - 1 / 200)));
    expect(code(down, 10, 100)).toBe(expected(1 + 0.1 / 200));
    expect(code(down, 63, 0)).toBe(code(down, 0, 0));
    const side = lightGradient(flat, 'horizontal', -0.1);
    expect(code(side, 0, 5)).toBe(expected(1 + 0.1 * (1 - 1 / 64)));
    expect(code(side, 63, 5)).toBe(expected(1 - 0.1 * (1 - 1 / 64)));
    expect(code(side, 0, 199)).toBe(code(side, 0, 0));
  });

  it('JPEG q60 4:2:0 keeps the mean colour and loses chroma detail', () => {
    const out = jpeg420(image, 60);
    for (let c = 0; c < 3; c++) {
      let before = 0;
      let after = 0;
      for (let p = c; p < image.data.length; p += 4) {
        before += image.data[p]!;
        after += out.data[p]!;
      }
      expect(Math.abs(after - before) / (image.data.length / 4)).toBeLessThan(1);
    }
    // Chroma detail on the photo: Cr's departure from its 2 × 2 block's mean.
    const cr = (img: RgbaImage, i: number) =>
      0.5 * img.data[i * 4]! - 0.418688 * img.data[i * 4 + 1]! - 0.081312 * img.data[i * 4 + 2]!;
    const detail = (img: RgbaImage) => {
      let sum = 0;
      for (let y = 0; y + 1 < img.height; y += 2)
        for (let x = 0; x + 1 < img.width; x += 2) {
          const block = [
            y * img.width + x,
            y * img.width + x + 1,
            (y + 1) * img.width + x,
            (y + 1) * img.width + x + 1,
          ];
          const m = block.reduce((total, i) => total + cr(img, i), 0) / 4;
          for (const i of block) sum += Math.abs(cr(img, i) - m);
        }
      return sum;
    };
    expect(detail(out)).toBeLessThan(0.8 * detail(image));
    // Stripes of one pixel, red and green of the same luma: 4:2:0 averages their colour away, where a
    // 4:4:4 JPEG at the same quality keeps most of it.
    const stripes = grey(0, 64, 64);
    for (let i = 0; i < 64 * 64; i++) stripes.data.set(i % 2 === 0 ? [180, 100, 120] : [110, 136, 120], i * 4);
    const contrast = (img: RgbaImage) => {
      let sum = 0;
      for (let y = 8; y < 56; y++)
        for (let x = 8; x < 56; x++) sum += Math.abs(cr(img, y * 64 + x) - cr(img, y * 64 + x + 1));
      return sum / (48 * 48);
    };
    expect(contrast(stripes)).toBeGreaterThan(40);
    expect(contrast(jpeg420(stripes, 60))).toBeLessThan(4);
    expect(contrast(reencodeJpeg(stripes, 60))).toBeGreaterThan(20);
  });

  it('rescale to 50 % and back: same size and mean, finer detail gone', () => {
    const out = rescaleRoundTrip(image, 0.5);
    expect([out.width, out.height]).toEqual([image.width, image.height]);
    let before = 0;
    let after = 0;
    let roughBefore = 0;
    let roughAfter = 0;
    for (let p = 4; p < image.data.length; p += 4) {
      before += image.data[p]!;
      after += out.data[p]!;
      roughBefore += Math.abs(image.data[p]! - image.data[p - 4]!);
      roughAfter += Math.abs(out.data[p]! - out.data[p - 4]!);
    }
    expect(Math.abs(after - before) / (image.data.length / 4)).toBeLessThan(0.5);
    expect(roughAfter).toBeLessThan(0.8 * roughBefore);
    // A smooth ramp survives (an odd size too).
    const ramp = grey(0, 33, 9);
    for (let i = 0; i < 33 * 9; i++) ramp.data.fill(60 + 3 * (i % 33), i * 4, i * 4 + 3);
    const back = rescaleRoundTrip(ramp, 0.5);
    for (let i = 0; i < 33 * 9; i++) {
      const x = i % 33;
      if (x > 1 && x < 31) expect(Math.abs(back.data[i * 4]! - ramp.data[i * 4]!)).toBeLessThanOrEqual(1);
    }
  });

  it('rotation turns the content about the centre (positive: clockwise on screen)', () => {
    const dot = grey(0, 101, 101);
    dot.data.fill(255, (50 * 101 + 90) * 4, (50 * 101 + 90) * 4 + 3);
    const turned = rotate(dot, 10);
    let x = 0;
    let y = 0;
    let total = 0;
    for (let i = 0; i < 101 * 101; i++) {
      x += (i % 101) * turned.data[i * 4]!;
      y += Math.floor(i / 101) * turned.data[i * 4]!;
      total += turned.data[i * 4]!;
    }
    expect(x / total).toBeCloseTo(50 + 40 * Math.cos(Math.PI / 18), 0);
    expect(y / total).toBeCloseTo(50 + 40 * Math.sin(Math.PI / 18), 0);
  });

  it.each([2, 4])('sensor noise σ %i: the σ asked for, no bias, seeded', (sigma) => {
    const out = sensorNoise(image, sigma, 11);
    let sum = 0;
    let squares = 0;
    let n = 0;
    let alphaChanged = 0;
    for (let p = 0; p < image.data.length; p++) {
      if ((p & 3) === 3) {
        if (out.data[p] !== image.data[p]) alphaChanged++;
        continue;
      }
      if (image.data[p]! < 20 || image.data[p]! > 235) continue;
      const d = out.data[p]! - image.data[p]!;
      sum += d;
      squares += d * d;
      n++;
    }
    const mean = sum / n;
    expect(alphaChanged).toBe(0);
    expect(Math.abs(mean)).toBeLessThan(0.05);
    expect(Math.abs(Math.sqrt(squares / n - mean * mean) / sigma - 1)).toBeLessThan(0.1);
    expect(sameBytes(sensorNoise(image, sigma, 11), out)).toBe(true);
    expect(sameBytes(sensorNoise(image, sigma, 12), out)).toBe(false);
  });

  it('the set: its cases in order, the flip marked, each a new image of the same size', () => {
    expect(INVARIANCE_SET.map((c) => c.name)).toEqual([
      'exposure −20 %',
      'exposure −10 %',
      'exposure +10 %',
      'exposure +20 %',
      'white balance warm',
      'white balance cool',
      'JPEG q60 4:2:0',
      'rescale 50 % round trip',
      'horizontal flip',
      'rotation −5°',
      'rotation +5°',
      'vertical gradient +10 % (lighter below)',
      'vertical gradient −10 % (lighter above)',
      'side gradient +10 % (lighter on the right)',
      'side gradient −10 % (lighter on the left)',
      'sensor noise σ 2',
      'sensor noise σ 4',
    ]);
    expect(INVARIANCE_SET.filter((c) => c.swapsSides).map((c) => c.name)).toEqual(['horizontal flip']);
    const small: RgbaImage = { width: 97, height: 75, data: new Uint8ClampedArray(97 * 75 * 4) };
    for (let i = 0; i < small.data.length; i++) small.data[i] = (i & 3) === 3 ? 255 : (i * 37) % 251;
    const copy = small.data.slice();
    for (const c of INVARIANCE_SET) {
      const out = c.apply(small);
      expect([out.width, out.height], c.name).toEqual([97, 75]);
      expect(out.data, c.name).not.toBe(small.data);
      expect(sameBytes(out, small), c.name).toBe(false);
    }
    expect(equalBytes(small.data, copy)).toBe(true);
  });
});

// Last: every phantom above worked on copies.
it('the photo itself was never written', () => {
  expect(equalBytes(image.data, pristine)).toBe(true);
});
