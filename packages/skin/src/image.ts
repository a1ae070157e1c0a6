// Geometry on RGBA images: an affine resampling (bilinear) used to cut out the face upright at a
// fixed physical scale, and small helpers.

import type { Point, RgbaImage } from './contract.ts';

/** Maps an output pixel (x, y) to a source position: sx = a·x + b·y + c, sy = d·x + e·y + f. */
export interface Affine {
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly d: number;
  readonly e: number;
  readonly f: number;
}

export function applyAffine(t: Affine, [x, y]: Point): Point {
  return [t.a * x + t.b * y + t.c, t.d * x + t.e * y + t.f];
}

export function invertAffine(t: Affine): Affine {
  const det = t.a * t.e - t.b * t.d;
  const a = t.e / det;
  const b = -t.b / det;
  const d = -t.d / det;
  const e = t.a / det;
  return { a, b, c: -(a * t.c + b * t.f), d, e, f: -(d * t.c + e * t.f) };
}

/**
 * A width × height image whose pixel centres (x + 0.5, y + 0.5) sample the source at
 * `transform(x + 0.5, y + 0.5)` bilinearly; outside the source, edge pixels are repeated.
 * When the output is much smaller than the source, the source should be pre-shrunk (see `shrink`).
 */
export function resampleAffine(source: RgbaImage, width: number, height: number, transform: Affine): RgbaImage {
  const out = new Uint8ClampedArray(width * height * 4);
  const sw = source.width;
  const sh = source.height;
  const src = source.data;
  const { a, b, c, d, e, f } = transform;
  for (let y = 0; y < height; y++) {
    const oy = y + 0.5;
    for (let x = 0, o = y * width * 4; x < width; x++, o += 4) {
      const ox = x + 0.5;
      const rawX = a * ox + b * oy + c - 0.5;
      const rawY = d * ox + e * oy + f - 0.5;
      const sx = rawX < 0 ? 0 : rawX > sw - 1 ? sw - 1 : rawX;
      const sy = rawY < 0 ? 0 : rawY > sh - 1 ? sh - 1 : rawY;
      const x0 = sx | 0;
      const y0 = sy | 0;
      const fx = sx - x0;
      const fy = sy - y0;
      const p00 = (y0 * sw + x0) * 4;
      const p01 = x0 + 1 < sw ? p00 + 4 : p00;
      const p10 = y0 + 1 < sh ? p00 + sw * 4 : p00;
      const p11 = x0 + 1 < sw ? p10 + 4 : p10;
      for (let ch = 0; ch < 3; ch++) {
        const top = src[p00 + ch]! + (src[p01 + ch]! - src[p00 + ch]!) * fx;
        const bottom = src[p10 + ch]! + (src[p11 + ch]! - src[p10 + ch]!) * fx;
        // Uint8ClampedArray rounds to the nearest code itself (adding 0.5 would round up twice).
        out[o + ch] = top + (bottom - top) * fy;
      }
      out[o + 3] = 255;
    }
  }
  return { width, height, data: out };
}

/** Halves the image by averaging 2 × 2 blocks (a cheap anti-alias before a large reduction). */
export function halve(source: RgbaImage): RgbaImage {
  const width = Math.max(1, source.width >> 1);
  const height = Math.max(1, source.height >> 1);
  const out = new Uint8ClampedArray(width * height * 4);
  const sw = source.width;
  const src = source.data;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = (2 * y * sw + 2 * x) * 4;
      const q = p + sw * 4;
      const o = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) out[o + c] = (src[p + c]! + src[p + 4 + c]! + src[q + c]! + src[q + 4 + c]! + 2) >> 2;
      out[o + 3] = 255;
    }
  }
  return { width, height, data: out };
}
