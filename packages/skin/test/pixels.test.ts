import { describe, expect, it } from 'vitest';
import { connectedBlobs, differenceOfGaussians, gaussianBlur, laplacianVariance, smoothBlur } from '../src/filters.ts';
import { halve, invertAffine, applyAffine, resampleAffine } from '../src/image.ts';
import {
  countMask,
  dilateMask,
  fillPolygons,
  overlapCount,
  polygonMask,
  subtractMask,
  trianglesMask,
} from '../src/mask.ts';
import { median, select } from '../src/metrics.ts';

describe('masks', () => {
  it('fills a square by pixel centres', () => {
    const mask = polygonMask(10, 10, [
      [
        [2, 2],
        [6, 2],
        [6, 5],
        [2, 5],
      ],
    ]);
    expect(countMask(mask)).toBe(4 * 3);
    expect(mask[2 * 10 + 2]).toBe(1);
    expect(mask[5 * 10 + 2]).toBe(0);
  });

  it('an outer and an inner loop make a ring (even-odd)', () => {
    const ring = polygonMask(20, 20, [
      [
        [0, 0],
        [20, 0],
        [20, 20],
        [0, 20],
      ],
      [
        [5, 5],
        [15, 5],
        [15, 15],
        [5, 15],
      ],
    ]);
    expect(countMask(ring)).toBe(400 - 100);
    expect(ring[10 * 20 + 10]).toBe(0);
  });

  it('a triangle covers half its box, clipped to the image', () => {
    const mask = trianglesMask(100, 100, [
      [
        [0, 0],
        [100, 0],
        [0, 100],
      ],
    ]);
    expect(countMask(mask)).toBeGreaterThan(4900);
    expect(countMask(mask)).toBeLessThan(5100);
    const clipped = fillPolygons(new Uint8Array(100), 10, 10, [
      [
        [-5, -5],
        [50, -5],
        [50, 50],
        [-5, 50],
      ],
    ]);
    expect(countMask(clipped)).toBe(100);
  });

  it('dilates, subtracts and counts overlaps', () => {
    const dot = new Uint8Array(81);
    dot[4 * 9 + 4] = 1;
    const grown = dilateMask(dot, 9, 9, 2);
    expect(countMask(grown)).toBe(25);
    expect(overlapCount(grown, dot)).toBe(1);
    expect(countMask(subtractMask(grown.slice(), dot))).toBe(24);
  });

  it('dilation matches the square neighbourhood taken pixel by pixel, up to the edges', () => {
    let seed = 3;
    // Width, height, radius, and the rectangle [x0, y0, x1, y1] where pixels may be set.
    for (const [width, height, radius, [x0, y0, x1, y1]] of [
      [17, 11, 2, [0, 0, 16, 10]],
      [5, 23, 3, [0, 0, 4, 22]],
      [9, 4, 6, [0, 0, 8, 3]],
      [30, 25, 3, [10, 8, 15, 12]],
    ] as const) {
      const mask = new Uint8Array(width * height);
      for (let y = y0; y <= y1; y++)
        for (let x = x0; x <= x1; x++) {
          seed = (seed * 1103515245 + 12345) >>> 0;
          mask[y * width + x] = seed % 7 === 0 ? 1 : 0;
        }
      const expected = new Uint8Array(mask.length);
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++)
          for (let dy = -radius; dy <= radius; dy++)
            for (let dx = -radius; dx <= radius; dx++) {
              const [xx, yy] = [x + dx, y + dy];
              if (xx >= 0 && xx < width && yy >= 0 && yy < height && mask[yy * width + xx]) expected[y * width + x] = 1;
            }
      expect(dilateMask(mask, width, height, radius)).toEqual(expected);
    }
  });
});

describe('filters', () => {
  const noise = (width: number, height: number) => {
    let seed = 7;
    const out = new Float32Array(width * height);
    for (let i = 0; i < out.length; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      out[i] = (seed / 2 ** 32) * 100;
    }
    return out;
  };

  /** Straightforward separable convolution with edges clamped: what the fast filters must equal. */
  const reference = (src: Float32Array, width: number, height: number, taps: number[]) => {
    const r = (taps.length - 1) / 2;
    const at = (v: number, n: number) => Math.min(n - 1, Math.max(0, v));
    const rows = new Float64Array(src.length);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++)
        for (let k = -r; k <= r; k++) rows[y * width + x]! += taps[k + r]! * src[y * width + at(x + k, width)]!;
    const out = new Float64Array(src.length);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++)
        for (let k = -r; k <= r; k++) out[y * width + x]! += taps[k + r]! * rows[at(y + k, height) * width + x]!;
    return out;
  };
  const maxDifference = (a: ArrayLike<number>, b: ArrayLike<number>) => {
    let max = 0;
    for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]! - b[i]!));
    return max;
  };

  it('the exact Gaussian and the box smoothing equal a plain convolution, edges included', () => {
    for (const [width, height] of [
      [23, 17],
      [3, 9],
      [12, 2],
    ] as const) {
      const src = noise(width, height);
      const sigma = 1.2;
      const radius = Math.ceil(2.5 * sigma);
      const raw = Array.from({ length: 2 * radius + 1 }, (_, i) => Math.exp(-((i - radius) ** 2) / (2 * sigma ** 2)));
      const total = raw.reduce((sum, value) => sum + value, 0);
      const gaussian = reference(
        src,
        width,
        height,
        raw.map((value) => value / total),
      );
      expect(maxDifference(gaussianBlur(src, width, height, sigma), gaussian)).toBeLessThan(1e-3);
      // smoothBlur at σ = 2: two boxes of radius 2 (width 5).
      const box = Array.from({ length: 5 }, () => 1 / 5);
      const twice = reference(Float32Array.from(reference(src, width, height, box)), width, height, box);
      expect(maxDifference(smoothBlur(src, width, height, 2), twice)).toBeLessThan(1e-3);
    }
  });

  it('a Gaussian blur keeps a constant and the mean, and smooths noise', () => {
    const flat = new Float32Array(400).fill(42);
    expect(Math.max(...gaussianBlur(flat, 20, 20, 2)) - 42).toBeLessThan(1e-4);
    expect(Math.max(...gaussianBlur(flat, 20, 20, 6)) - 42).toBeLessThan(1e-4);
    const src = noise(64, 64);
    for (const sigma of [1, 5]) {
      const blurred = gaussianBlur(src, 64, 64, sigma);
      const mean = (a: Float32Array) => a.reduce((s, v) => s + v, 0) / a.length;
      const sd = (a: Float32Array) => Math.sqrt(a.reduce((s, v) => s + (v - mean(a)) ** 2, 0) / a.length);
      expect(Math.abs(mean(blurred) - mean(src))).toBeLessThan(1);
      expect(sd(blurred)).toBeLessThan(sd(src) / (1 + sigma));
    }
  });

  it('the box approximation of a wide Gaussian spreads a point with the right width', () => {
    const src = new Float32Array(101 * 101);
    src[50 * 101 + 50] = 1;
    const out = gaussianBlur(src, 101, 101, 8);
    let variance = 0;
    let total = 0;
    for (let x = 0; x < 101; x++) {
      const v = out[50 * 101 + x]!;
      variance += v * (x - 50) ** 2;
      total += v;
    }
    expect(Math.sqrt(variance / total)).toBeGreaterThan(7);
    expect(Math.sqrt(variance / total)).toBeLessThan(9);
  });

  it('a difference of Gaussians is zero on a flat image and responds to detail', () => {
    const flat = new Float32Array(400).fill(10);
    expect(Math.max(...differenceOfGaussians(flat, 20, 20, 1, 3).map(Math.abs))).toBeLessThan(1e-4);
    const detail = differenceOfGaussians(noise(40, 40), 40, 40, 1, 3);
    expect(Math.max(...detail.map(Math.abs))).toBeGreaterThan(1);
  });

  it('the Laplacian variance falls when the image is blurred', () => {
    const src = noise(50, 50);
    const sharp = laplacianVariance(src, 50, 50);
    const soft = laplacianVariance(gaussianBlur(src, 50, 50, 2), 50, 50);
    expect(soft).toBeLessThan(sharp / 20);
    expect(laplacianVariance(new Float32Array(100).fill(3), 10, 10)).toBe(0);
  });

  it('finds connected blobs and drops the small ones', () => {
    const mask = new Uint8Array(100);
    for (const i of [11, 12, 21, 22, 55, 77, 78]) mask[i] = 1;
    const blobs = connectedBlobs(mask, 10, 10);
    expect(blobs.map((b) => b.area).sort()).toEqual([1, 2, 4]);
    expect(connectedBlobs(mask, 10, 10, 3)).toEqual([{ area: 4, x: 2, y: 2 }]);
  });

  it('select and median find order statistics', () => {
    expect(median(Float32Array.from([5, 1, 4, 2, 3]))).toBe(3);
    expect(select(Float32Array.from([9, 8, 7, 6, 5, 4]), 0)).toBe(4);
    expect(Number.isNaN(median(new Float32Array(0)))).toBe(true);
  });
});

describe('geometry', () => {
  it('an affine map and its inverse cancel', () => {
    const t = { a: 0.9, b: -0.3, c: 12, d: 0.3, e: 0.9, f: -4 };
    const [x, y] = applyAffine(invertAffine(t), applyAffine(t, [7, 3]));
    expect(x).toBeCloseTo(7, 9);
    expect(y).toBeCloseTo(3, 9);
  });

  it('resampling with the identity copies; halving averages', () => {
    const data = new Uint8ClampedArray(4 * 4 * 4);
    for (let i = 0; i < 16; i++) data.set([i * 10, 0, 0, 255], i * 4);
    const image = { width: 4, height: 4, data };
    expect(resampleAffine(image, 4, 4, { a: 1, b: 0, c: 0, d: 0, e: 1, f: 0 }).data).toEqual(data);
    const half = halve(image);
    expect(half.width).toBe(2);
    expect(half.data[0]).toBe(Math.round((0 + 10 + 40 + 50) / 4));
  });
});
