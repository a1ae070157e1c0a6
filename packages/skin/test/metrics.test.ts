import { describe, expect, it } from 'vitest';
import { METRIC_IDS, type RgbaImage } from '../src/contract.ts';
import { imageToLab } from '../src/colour.ts';
import { gaussianBlur } from '../src/filters.ts';
import {
  darkCirclesScore,
  keepDiffuseSkin,
  keepSkin,
  measureZone,
  METRIC_TUNING,
  metricFields,
  skinReference,
  trimmedMean,
  zoneScores,
} from '../src/metrics.ts';
import { seededRandom } from './variants.ts';

// Synthetic skin: a 200 × 100 patch at 2 px/mm (100 × 50 mm), skin-coloured with a little
// pixel noise. The left half is the reference skin, the right half the zone under test.
const W = 200;
const H = 100;
const PX_PER_MM = 2;
const SKIN: [number, number, number] = [214, 160, 138];

function skinPatch(seed = 1, noise = 3): RgbaImage {
  const random = seededRandom(seed);
  const data = new Uint8ClampedArray(W * H * 4);
  for (let i = 0; i < W * H; i++) {
    const n = (random() - 0.5) * 2 * noise;
    data.set([SKIN[0] + n, SKIN[1] + n, SKIN[2] + n, 255], i * 4);
  }
  return { width: W, height: H, data };
}

/** Changes the pixels of the right half where `where(x, y)` holds. */
function paint(
  image: RgbaImage,
  where: (x: number, y: number) => boolean,
  change: (rgb: number[]) => number[],
): RgbaImage {
  const data = image.data.slice();
  for (let y = 0; y < H; y++)
    for (let x = W / 2; x < W; x++) {
      if (!where(x, y)) continue;
      const p = (y * W + x) * 4;
      data.set(change([data[p]!, data[p + 1]!, data[p + 2]!]), p);
    }
  return { width: W, height: H, data };
}

const half = (right: boolean) => {
  const mask = new Uint8Array(W * H);
  for (let y = 2; y < H - 2; y++) for (let x = 2; x < W - 2; x++) if (x >= W / 2 === right) mask[y * W + x] = 1;
  return mask;
};

/** The metric fields of the patch: the left half's skin the reference, the right half's the zone. */
function fieldsOf(image: RgbaImage) {
  const lab = imageToLab(image);
  const reference = skinReference(lab, half(false));
  const zone = keepSkin(lab, half(true), reference);
  const all = zone.slice();
  keepSkin(lab, half(false), reference, all);
  return { lab, zone, fields: metricFields(lab, all, reference, PX_PER_MM) };
}

function score(image: RgbaImage) {
  const { lab, zone, fields } = fieldsOf(image);
  const measures = measureZone(fields, lab, zone, PX_PER_MM);
  return { ...zoneScores('forehead', measures), measures };
}

const disc = (cx: number, cy: number, r: number) => (x: number, y: number) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;

describe('metrics on synthetic skin', () => {
  const plain = score(skinPatch());

  it('plain skin: nothing red, nothing shiny, even, little texture', () => {
    expect(plain.redness).toBeLessThan(2);
    expect(plain.shine).toBeLessThan(2);
    expect(plain.evenness).toBeGreaterThan(95);
    expect(plain.texture).toBeLessThan(25);
  });

  it('a redder patch scores redder, and redder still when redder', () => {
    const patch = (amount: number) =>
      score(paint(skinPatch(), disc(150, 50, 30), ([r, g, b]) => [r! + amount / 2, g! - amount, b! - amount / 4]));
    const some = patch(10).redness!;
    const more = patch(25).redness!;
    expect(some).toBeGreaterThan(plain.redness! + 10);
    expect(more).toBeGreaterThan(some);
  });

  it('a shinier patch scores shinier', () => {
    const shiny = score(paint(skinPatch(), disc(150, 50, 12), () => [250, 246, 244]));
    const shinier = score(paint(skinPatch(), disc(150, 50, 22), () => [250, 246, 244]));
    expect(shiny.shine).toBeGreaterThan(plain.shine! + 10);
    expect(shinier.shine).toBeGreaterThan(shiny.shine!);
  });

  it('a rougher patch scores rougher (relief at the millimetre scale)', () => {
    const rough = (amplitude: number) => {
      const random = seededRandom(9);
      const bumps = new Float32Array(W * H).map(() => random() - 0.5);
      const relief = gaussianBlur(bumps, W, H, 0.5 * PX_PER_MM);
      let peak = 0;
      for (const v of relief) peak = Math.max(peak, Math.abs(v));
      return score(
        (() => {
          const image = skinPatch();
          const data = image.data;
          for (let i = 0; i < W * H; i++) {
            if (i % W < W / 2) continue;
            const d = (relief[i]! / peak) * amplitude;
            data[i * 4] = data[i * 4]! + d;
            data[i * 4 + 1] = data[i * 4 + 1]! + d;
            data[i * 4 + 2] = data[i * 4 + 2]! + d;
          }
          return image;
        })(),
      );
    };
    const some = rough(12).texture!;
    const more = rough(30).texture!;
    expect(some).toBeGreaterThan(plain.texture! + 5);
    expect(more).toBeGreaterThan(some);
  });

  it('dark spots make the zone less even', () => {
    let spotted = skinPatch();
    for (const [cx, cy] of [
      [120, 25],
      [150, 70],
      [175, 40],
      [135, 80],
      [180, 15],
      [160, 30],
    ] as const)
      spotted = paint(spotted, disc(cx, cy, 5), ([r, g, b]) => [r! - 40, g! - 40, b! - 35]);
    const result = score(spotted);
    expect(result.evenness).toBeLessThan(plain.evenness! - 3);
    expect(result.measures.spots).toBeGreaterThan(0);
  });

  it('a spot counts by how far it stands out of the relief around it: whole on smooth skin, in part among relief', () => {
    // One 2 mm spot, deep enough to count at full strength, among relief of growing amplitude.
    const random = seededRandom(5);
    const bumps = gaussianBlur(
      new Float32Array(W * H).map(() => random() - 0.5),
      W,
      H,
      0.5 * PX_PER_MM,
    );
    const rms = Math.sqrt(bumps.reduce((sum, v) => sum + v * v, 0) / bumps.length);
    const [cx, cy] = [150, 50];
    const weightAtSpot = (amplitude: number) => {
      let image = skinPatch(1, 0);
      for (let i = 0; i < W * H; i++) {
        if (i % W < W / 2) continue;
        for (let c = 0; c < 3; c++) image.data[i * 4 + c] = image.data[i * 4 + c]! + (bumps[i]! / rms) * amplitude;
      }
      // The spot is flat: the relief under it would deepen it as the amplitude grows.
      image = paint(image, disc(cx, cy, 2), () => [SKIN[0] - 30, SKIN[1] - 30, SKIN[2] - 26]);
      // What counts for it: the spot itself (its centre), and the spot or the deeper dip of the relief
      // within `spotSeparationMm` that it merges with.
      const { spots } = fieldsOf(image).fields;
      const within = (reach: number) => {
        let weight = 0;
        for (let y = cy - reach; y <= cy + reach; y++)
          for (let x = cx - reach; x <= cx + reach; x++)
            if ((x - cx) ** 2 + (y - cy) ** 2 <= reach * reach) weight = Math.max(weight, spots[y * W + x]!);
        return weight;
      };
      return { own: within(2), merged: within(Math.floor(METRIC_TUNING.spotSeparationMm * PX_PER_MM)) };
    };
    // Relief of 0 to 20 codes RMS: the spot stands out about 8 × down to 1.9 × (docs/skin-analysis.md § Metrics).
    const readings = [0, 4, 6, 8, 10, 12, 14, 16, 20].map(weightAtSpot);
    expect(readings[0]!.own).toBe(1);
    expect(readings.at(-1)!.own).toBe(0);
    const weights = readings.slice(0, -1).map((reading) => reading.merged);
    expect(weights.some((w) => w > 0.2 && w < 0.8)).toBe(true);
    for (let k = 1; k < weights.length; k++) {
      expect(weights[k]!).toBeLessThanOrEqual(weights[k - 1]! + 1e-6);
      // No spot comes or goes whole between two close amplitudes (a cut did: 1, then 0).
      expect(weights[k - 1]! - weights[k]!).toBeLessThan(0.5);
    }
  });

  it('a dip on the edge of what the skin test leaves out is that edge, not a spot', () => {
    // Hair over the right end of the zone (too dark to pass the skin test), and a 2 mm dark spot (−30
    // codes: it passes the test, as the edge of a strand does) on the hair's edge or inside the skin.
    const hair = (x: number) => x >= 170;
    const countNear = (cx: number | null) => {
      let image = paint(skinPatch(1, 0), hair, () => [60, 42, 34]);
      if (cx !== null)
        image = paint(
          image,
          (x, y) => !hair(x) && disc(cx, 50, 2)(x, y),
          () => [SKIN[0] - 30, SKIN[1] - 30, SKIN[2] - 26],
        );
      const { fields } = fieldsOf(image);
      // What counts within the spots' separation of the spot, or of the edge's middle.
      const [x0, reach] = [cx ?? 170, Math.ceil(METRIC_TUNING.spotSeparationMm * PX_PER_MM)];
      let count = 0;
      for (let y = 50 - reach; y <= 50 + reach; y++)
        for (let x = x0 - reach; x <= x0 + reach; x++) count += fields.spots[y * W + x]!;
      return count;
    };
    // The hair's edge alone counts nothing, half a spot on it little (it counted whole until skin-9),
    // the same spot inside the skin whole; in between, the count grows with the distance. (Within 3 mm
    // of the edge, the edge, read darker than the spot, is the one minimum kept: docs/skin-analysis.md
    // § Limits.)
    expect(countNear(null)).toBeLessThan(0.1);
    const counts = [170, 168, 164, 160, 150].map(countNear);
    expect(counts[0]!).toBeLessThan(0.5);
    expect(counts.at(-1)!).toBeGreaterThan(0.95);
    for (let k = 1; k < counts.length; k++) expect(counts[k]!).toBeGreaterThanOrEqual(counts[k - 1]! - 1e-6);
  });

  it('the light is read from skin of the face’s own colour: a highlight is kept as skin, not as light', () => {
    // A darker complexion (L* 40), a whitish highlight on it, the skin in shade, and hair.
    const pixels: [string, number, number, number][] = [
      ['skin', 40, 14, 16],
      ['highlight', 62, 3, 1],
      ['shade', 30, 13, 15],
      ['hair', 15, 4, 5],
    ];
    const lab = {
      width: pixels.length,
      height: 1,
      L: new Float32Array(pixels.map((p) => p[1])),
      a: new Float32Array(pixels.map((p) => p[2])),
      b: new Float32Array(pixels.map((p) => p[3])),
    };
    const reference = { L: 40, a: 14, b: 16, chroma: 21 };
    const all = new Uint8Array(pixels.length).fill(1);
    const names = (kept: Uint8Array) => pixels.filter((_, i) => kept[i] !== 0).map((p) => p[0]);
    expect(names(keepSkin(lab, all, reference))).toEqual(['skin', 'highlight', 'shade']);
    expect(names(keepDiffuseSkin(lab, all, reference))).toEqual(['skin', 'shade']);
  });

  it('stays within 0–100 on extreme images', () => {
    const random = seededRandom(3);
    const wild = skinPatch();
    for (let i = 0; i < wild.data.length; i++) if (i % 4 !== 3) wild.data[i] = random() * 255;
    const white = { width: W, height: H, data: new Uint8ClampedArray(W * H * 4).fill(255) };
    const black = {
      width: W,
      height: H,
      data: new Uint8ClampedArray(W * H * 4).map((_, i) => (i % 4 === 3 ? 255 : 0)),
    };
    for (const image of [wild, white, black]) {
      const result = score(image);
      for (const metric of METRIC_IDS) {
        const value = result[metric];
        if (value === undefined) continue;
        expect(Number.isFinite(value)).toBe(true);
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(100);
      }
    }
  });

  it('dark circles are signed against the cheeks, never stuck at 0, and bounded', () => {
    expect(darkCirclesScore(60, 60)).toBe(50);
    // An under-eye lighter than the cheeks reads below 50, and darkening it from there still counts.
    expect(darkCirclesScore(64, 60)).toBeLessThan(50);
    expect(darkCirclesScore(60, 60) - darkCirclesScore(64, 60)).toBeGreaterThanOrEqual(8);
    expect(darkCirclesScore(55, 60)).toBeGreaterThan(darkCirclesScore(58, 60));
    // In L* units: the same darkening reads the same on every complexion.
    expect(darkCirclesScore(26, 30)).toBe(darkCirclesScore(56, 60));
    expect(darkCirclesScore(10, 90)).toBe(100);
    expect(darkCirclesScore(90, 10)).toBe(0);
  });
});

describe('trimmedMean (the under-eye read on its lighter half)', () => {
  it('averages the values between two quantiles, whatever their order', () => {
    // 20 values 1…20, shuffled: the 50th–95th percentile keeps 11…19.
    const values = Float32Array.from({ length: 20 }, (_, i) => ((i * 7) % 20) + 1);
    expect(trimmedMean(values, 0.5, 0.95)).toBe(15);
    expect(trimmedMean(Float32Array.from([4, 1, 3, 2]), 0, 1)).toBe(2.5);
  });

  it('keeps at least one value, and says NaN of none', () => {
    expect(trimmedMean(Float32Array.from([7]), 0.5, 0.95)).toBe(7);
    expect(trimmedMean(new Float32Array(0), 0.5, 0.95)).toBeNaN();
  });
});
