// Masks: polygons and triangles rasterised to one byte a pixel (pixel centres at +0.5), and the
// few operations the zones need.

import type { Point } from './contract.ts';

export type Mask = Uint8Array;

/**
 * Sets `value` in `mask` (width × height) for every pixel whose centre lies inside the polygon(s),
 * by the even-odd rule (so an outer loop with an inner loop makes a ring).
 */
export function fillPolygons(
  mask: Mask,
  width: number,
  height: number,
  polygons: readonly (readonly Point[])[],
  value = 1,
): Mask {
  let minY = Infinity;
  let maxY = -Infinity;
  for (const polygon of polygons)
    for (const [, y] of polygon) {
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  const yStart = Math.max(0, Math.ceil(minY - 0.5));
  const yEnd = Math.min(height - 1, Math.floor(maxY - 0.5));
  const crossings: number[] = [];
  for (let y = yStart; y <= yEnd; y++) {
    const cy = y + 0.5;
    crossings.length = 0;
    for (const polygon of polygons) {
      for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
        const [xi, yi] = polygon[i]!;
        const [xj, yj] = polygon[j]!;
        if (yi > cy !== yj > cy) crossings.push(xi + ((cy - yi) * (xj - xi)) / (yj - yi));
      }
    }
    crossings.sort((p, q) => p - q);
    const row = y * width;
    for (let k = 0; k + 1 < crossings.length; k += 2) {
      const x0 = Math.max(0, Math.ceil(crossings[k]! - 0.5));
      const x1 = Math.min(width - 1, Math.floor(crossings[k + 1]! - 0.5));
      if (x1 >= x0) mask.fill(value, row + x0, row + x1 + 1);
    }
  }
  return mask;
}

export function polygonMask(width: number, height: number, polygons: readonly (readonly Point[])[]): Mask {
  return fillPolygons(new Uint8Array(width * height), width, height, polygons);
}

/** The union of triangles (each filled on its own, so overlapping or folded triangles stay filled). */
export function trianglesMask(width: number, height: number, triangles: readonly (readonly Point[])[]): Mask {
  const mask = new Uint8Array(width * height);
  for (const triangle of triangles) fillPolygons(mask, width, height, [triangle]);
  return mask;
}

export function countMask(mask: Mask): number {
  let count = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i] !== 0) count++;
  return count;
}

/** Pixels set in both masks. */
export function overlapCount(a: Mask, b: Mask): number {
  let count = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== 0 && b[i] !== 0) count++;
  return count;
}

/** Clears in `mask` every pixel set in `remove`. */
export function subtractMask(mask: Mask, remove: Mask): Mask {
  for (let i = 0; i < mask.length; i++) if (remove[i] !== 0) mask[i] = 0;
  return mask;
}

/** Grows a mask by `radius` pixels (a square neighbourhood, two separable passes). */
export function dilateMask(mask: Mask, width: number, height: number, radius: number): Mask {
  const r = Math.max(0, Math.round(radius));
  if (r === 0) return mask.slice();
  const rows = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    // Forward and backward sweeps for the nearest set pixel on the row.
    let last = -Infinity;
    for (let x = 0; x < width; x++) {
      if (mask[row + x]) last = x;
      if (x - last <= r) rows[row + x] = 1;
    }
    last = Infinity;
    for (let x = width - 1; x >= 0; x--) {
      if (mask[row + x]) last = x;
      if (last - x <= r) rows[row + x] = 1;
    }
  }
  const out = new Uint8Array(mask.length);
  for (let x = 0; x < width; x++) {
    let last = -Infinity;
    for (let y = 0; y < height; y++) {
      if (rows[y * width + x]) last = y;
      if (y - last <= r) out[y * width + x] = 1;
    }
    last = Infinity;
    for (let y = height - 1; y >= 0; y--) {
      if (rows[y * width + x]) last = y;
      if (last - y <= r) out[y * width + x] = 1;
    }
  }
  return out;
}
