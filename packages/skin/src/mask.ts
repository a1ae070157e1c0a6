// Masks: polygons and triangles rasterised to one byte a pixel (pixel centres at +0.5), and the
// few operations the zones need.

import type { Point } from './contract.ts';

export type Mask = Uint8Array;

/**
 * Sets `value` in `mask` (width × height) for every pixel whose centre lies inside the polygon(s),
 * by the even-odd rule (so an outer loop with an inner loop makes a ring). With `claimed`, only
 * pixels not yet set in it are filled, and they are then set in it.
 */
export function fillPolygons(
  mask: Mask,
  width: number,
  height: number,
  polygons: readonly (readonly Point[])[],
  value = 1,
  claimed?: Mask,
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
      if (x1 < x0) continue;
      if (!claimed) {
        mask.fill(value, row + x0, row + x1 + 1);
        continue;
      }
      for (let i = row + x0; i <= row + x1; i++) {
        if (claimed[i] !== 0) continue;
        mask[i] = value;
        claimed[i] = 1;
      }
    }
  }
  return mask;
}

export function polygonMask(width: number, height: number, polygons: readonly (readonly Point[])[]): Mask {
  return fillPolygons(new Uint8Array(width * height), width, height, polygons);
}

/**
 * Fills one triangle (pixel centres inside, as `fillPolygons`) without allocating: the mesh's zones
 * are hundreds of small triangles. With `claimed`, as in `fillPolygons`.
 */
export function fillTriangle(
  mask: Mask,
  width: number,
  height: number,
  a: Point,
  b: Point,
  c: Point,
  claimed?: Mask,
): void {
  const yStart = Math.max(0, Math.ceil(Math.min(a[1], b[1], c[1]) - 0.5));
  const yEnd = Math.min(height - 1, Math.floor(Math.max(a[1], b[1], c[1]) - 0.5));
  for (let y = yStart; y <= yEnd; y++) {
    const cy = y + 0.5;
    let left = Infinity;
    let right = -Infinity;
    let crossings = 0;
    for (let e = 0; e < 3; e++) {
      const p = e === 0 ? a : e === 1 ? b : c;
      const q = e === 0 ? b : e === 1 ? c : a;
      if (p[1] > cy === q[1] > cy) continue;
      const x = p[0] + ((cy - p[1]) * (q[0] - p[0])) / (q[1] - p[1]);
      if (x < left) left = x;
      if (x > right) right = x;
      crossings++;
    }
    if (crossings < 2) continue;
    const x0 = Math.max(0, Math.ceil(left - 0.5));
    const x1 = Math.min(width - 1, Math.floor(right - 0.5));
    const row = y * width;
    for (let i = row + x0; i <= row + x1; i++) {
      if (claimed) {
        if (claimed[i] !== 0) continue;
        claimed[i] = 1;
      }
      mask[i] = 1;
    }
  }
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

/** A rectangle of pixels, bounds included. */
export interface Box {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

/** The bounding box of the mask's set pixels grown by `margin` (within the image), or null when none is set. */
export function maskBox(mask: Mask, width: number, height: number, margin = 0): Box | null {
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (mask[row + x] === 0) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      y1 = y;
    }
  }
  if (x1 < 0) return null;
  return {
    x0: Math.max(0, x0 - margin),
    y0: Math.max(0, y0 - margin),
    x1: Math.min(width - 1, x1 + margin),
    y1: Math.min(height - 1, y1 + margin),
  };
}

/** Grows a mask by `radius` pixels (a square neighbourhood, two separable passes over the mask's box only). */
export function dilateMask(mask: Mask, width: number, height: number, radius: number): Mask {
  const r = Math.max(0, Math.round(radius));
  if (r === 0) return mask.slice();
  const out = new Uint8Array(mask.length);
  const box = maskBox(mask, width, height);
  if (!box) return out;
  const { x0, y0, x1, y1 } = box;
  const left = Math.max(0, x0 - r);
  const right = Math.min(width - 1, x1 + r);
  // Rows: forward and backward sweeps for the nearest set pixel on the row.
  const rows = new Uint8Array(mask.length);
  for (let y = y0; y <= y1; y++) {
    const row = y * width;
    let last = -Infinity;
    for (let x = left; x <= right; x++) {
      if (mask[row + x]) last = x;
      if (x - last <= r) rows[row + x] = 1;
    }
    last = Infinity;
    for (let x = right; x >= left; x--) {
      if (mask[row + x]) last = x;
      if (last - x <= r) rows[row + x] = 1;
    }
  }
  // Columns: a row of the output is set where any of the 2r + 1 rows around it is (running counts).
  const counts = new Int32Array(width);
  const top = Math.max(0, y0 - r);
  const bottom = Math.min(height - 1, y1 + r);
  for (let y = y0; y < top + r && y <= y1; y++) for (let x = left; x <= right; x++) counts[x]! += rows[y * width + x]!;
  for (let y = top; y <= bottom; y++) {
    const entering = y + r;
    if (entering < height) for (let x = left, i = entering * width + left; x <= right; x++, i++) counts[x]! += rows[i]!;
    const leaving = y - r - 1;
    if (leaving >= 0) for (let x = left, i = leaving * width + left; x <= right; x++, i++) counts[x]! -= rows[i]!;
    for (let x = left, i = y * width + left; x <= right; x++, i++) if (counts[x]! > 0) out[i] = 1;
  }
  return out;
}
