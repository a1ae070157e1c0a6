// Filters over one-channel float images (width × height, row-major): Gaussian blur, difference of
// Gaussians, the Laplacian's variance, and connected blobs of a binary mask.

/** One-dimensional Gaussian kernel, radius ⌈2.5σ⌉ (99 % of the weight), normalised to sum 1. */
function gaussianKernel(sigma: number): Float32Array {
  const radius = Math.max(1, Math.ceil(2.5 * sigma));
  const kernel = new Float32Array(2 * radius + 1);
  let sum = 0;
  for (let i = -radius; i <= radius; i++) {
    const value = Math.exp(-(i * i) / (2 * sigma * sigma));
    kernel[i + radius] = value;
    sum += value;
  }
  for (let i = 0; i < kernel.length; i++) kernel[i]! /= sum;
  return kernel;
}

function convolveRows(src: Float32Array, width: number, height: number, kernel: Float32Array): Float32Array {
  const out = new Float32Array(src.length);
  const radius = (kernel.length - 1) >> 1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      let sum = 0;
      if (x >= radius && x < width - radius) {
        const base = row + x - radius;
        for (let k = 0; k < kernel.length; k++) sum += src[base + k]! * kernel[k]!;
      } else {
        for (let k = -radius; k <= radius; k++) {
          const xx = x + k < 0 ? 0 : x + k >= width ? width - 1 : x + k;
          sum += src[row + xx]! * kernel[k + radius]!;
        }
      }
      out[row + x] = sum;
    }
  }
  return out;
}

function convolveColumns(src: Float32Array, width: number, height: number, kernel: Float32Array): Float32Array {
  const out = new Float32Array(src.length);
  const radius = (kernel.length - 1) >> 1;
  for (let y = 0; y < height; y++) {
    for (let k = -radius; k <= radius; k++) {
      let yy = y + k;
      if (yy < 0) yy = 0;
      else if (yy >= height) yy = height - 1;
      const weight = kernel[k + radius]!;
      const from = yy * width;
      const to = y * width;
      for (let x = 0; x < width; x++) out[to + x]! += src[from + x]! * weight;
    }
  }
  return out;
}

/** Running-sum box average of `count` samples read at `start + k·step` (edges clamped), radius r. */
function boxLine(src: Float32Array, out: Float32Array, start: number, step: number, count: number, r: number): void {
  const size = 2 * r + 1;
  const last = start + (count - 1) * step;
  let sum = 0;
  for (let k = -r; k <= r; k++) sum += src[k < 0 ? start : k >= count ? last : start + k * step]!;
  for (let i = 0; i < count; i++) {
    out[start + i * step] = sum / size;
    const add = i + r + 1;
    const remove = i - r;
    sum += src[add >= count ? last : start + add * step]! - src[remove < 0 ? start : start + remove * step]!;
  }
}

/** Box blur of radius r along rows then columns (edges clamped), in O(n) whatever r. */
function boxBlur(src: Float32Array, width: number, height: number, r: number): Float32Array {
  const tmp = new Float32Array(src.length);
  const out = new Float32Array(src.length);
  for (let y = 0; y < height; y++) boxLine(src, tmp, y * width, 1, width, r);
  for (let x = 0; x < width; x++) boxLine(tmp, out, x, width, height, r);
  return out;
}

/**
 * Gaussian blur of standard deviation `sigma` pixels (edges clamped). Exact separable kernel up to
 * σ = 2; above, three box blurs (within a few per cent of a Gaussian, and linear in time).
 */
export function gaussianBlur(src: Float32Array, width: number, height: number, sigma: number): Float32Array {
  if (sigma <= 0) return src.slice();
  if (sigma <= 2) {
    const kernel = gaussianKernel(sigma);
    return convolveColumns(convolveRows(src, width, height, kernel), width, height, kernel);
  }
  // Three boxes of width w have variance 3·(w² − 1)/12 = σ².
  const r = Math.max(1, Math.round((Math.sqrt(4 * sigma * sigma + 1) - 1) / 2));
  return boxBlur(boxBlur(boxBlur(src, width, height, r), width, height, r), width, height, r);
}

/** Difference of Gaussians: the band between σ1 and σ2 (σ1 < σ2), G(σ1) − G(σ2). */
export function differenceOfGaussians(
  src: Float32Array,
  width: number,
  height: number,
  sigma1: number,
  sigma2: number,
): Float32Array {
  const fine = gaussianBlur(src, width, height, sigma1);
  const coarse = gaussianBlur(fine, width, height, Math.sqrt(Math.max(0, sigma2 * sigma2 - sigma1 * sigma1)));
  for (let i = 0; i < fine.length; i++) fine[i]! -= coarse[i]!;
  return fine;
}

/** Variance of the 4-neighbour Laplacian over the pixels inside `mask` (all inner pixels when none). */
export function laplacianVariance(src: Float32Array, width: number, height: number, mask?: Uint8Array): number {
  let sum = 0;
  let sumSquares = 0;
  let count = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      if (mask && mask[i] === 0) continue;
      const value = src[i - 1]! + src[i + 1]! + src[i - width]! + src[i + width]! - 4 * src[i]!;
      sum += value;
      sumSquares += value * value;
      count++;
    }
  }
  if (count === 0) return 0;
  const mean = sum / count;
  return sumSquares / count - mean * mean;
}

export interface Blob {
  /** Pixels in the blob. */
  readonly area: number;
  /** Centre of the blob. */
  readonly x: number;
  readonly y: number;
}

/**
 * 4-connected blobs of the set pixels of `mask` with at least `minArea` pixels. When `members` is
 * given, the pixels of the blobs kept are set in it.
 */
export function connectedBlobs(
  mask: Uint8Array,
  width: number,
  height: number,
  minArea = 1,
  members?: Uint8Array,
): Blob[] {
  const seen = new Uint8Array(mask.length);
  const stack = new Int32Array(mask.length);
  const blobs: Blob[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (mask[start] === 0 || seen[start] === 1) continue;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    let area = 0;
    let sx = 0;
    let sy = 0;
    while (top > 0) {
      const i = stack[--top]!;
      const x = i % width;
      const y = (i - x) / width;
      area++;
      sx += x;
      sy += y;
      for (const j of [
        x > 0 ? i - 1 : -1,
        x < width - 1 ? i + 1 : -1,
        y > 0 ? i - width : -1,
        y < height - 1 ? i + width : -1,
      ]) {
        if (j < 0 || mask[j] === 0 || seen[j] === 1) continue;
        seen[j] = 1;
        stack[top++] = j;
      }
    }
    if (area < minArea) continue;
    blobs.push({ area, x: sx / area + 0.5, y: sy / area + 0.5 });
    if (members) floodMark(mask, width, height, start, members);
  }
  return blobs;
}

/** Sets in `out` the 4-connected component of `mask` containing `start`. */
function floodMark(mask: Uint8Array, width: number, height: number, start: number, out: Uint8Array): void {
  const stack = [start];
  out[start] = 1;
  while (stack.length > 0) {
    const i = stack.pop()!;
    const x = i % width;
    const y = (i - x) / width;
    for (const j of [
      x > 0 ? i - 1 : -1,
      x < width - 1 ? i + 1 : -1,
      y > 0 ? i - width : -1,
      y < height - 1 ? i + width : -1,
    ]) {
      if (j < 0 || mask[j] === 0 || out[j] === 1) continue;
      out[j] = 1;
      stack.push(j);
    }
  }
}
