// Filters over one-channel float images (width × height, row-major): Gaussian blur, difference of
// Gaussians, the Laplacian's variance, and connected blobs of a binary mask.

/**
 * One-dimensional Gaussian kernel, radius ⌈2.5σ⌉ (99 % of the weight), normalised to sum 1; as its
 * symmetric half: element 0 is the centre, element i the weight at ±i.
 */
function gaussianKernel(sigma: number): Float32Array {
  const radius = Math.max(1, Math.ceil(2.5 * sigma));
  const half = new Float32Array(radius + 1);
  let sum = 0;
  for (let i = 0; i <= radius; i++) {
    const value = Math.exp(-(i * i) / (2 * sigma * sigma));
    half[i] = value;
    sum += i === 0 ? value : 2 * value;
  }
  for (let i = 0; i <= radius; i++) half[i]! /= sum;
  return half;
}

/**
 * Rows convolved with a symmetric kernel given by its half (`half[0]` the centre, `half[i]` the
 * weight at ±i), edges clamped: each row is copied into a padded line so the inner loop has no test.
 */
function convolveRows(src: Float32Array, out: Float32Array, width: number, height: number, half: Float32Array): void {
  const radius = half.length - 1;
  const centre = half[0]!;
  const line = new Float32Array(width + 2 * radius);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    line.set(src.subarray(row, row + width), radius);
    line.fill(src[row]!, 0, radius);
    line.fill(src[row + width - 1]!, width + radius);
    for (let x = 0; x < width; x++) {
      const c = x + radius;
      let sum = centre * line[c]!;
      for (let i = 1; i <= radius; i++) sum += half[i]! * (line[c - i]! + line[c + i]!);
      out[row + x] = sum;
    }
  }
}

/** Columns convolved with a symmetric half kernel (as `convolveRows`), a whole row at a time. */
function convolveColumns(
  src: Float32Array,
  out: Float32Array,
  width: number,
  height: number,
  half: Float32Array,
): void {
  const radius = half.length - 1;
  const centre = half[0]!;
  const last = height - 1;
  for (let y = 0; y < height; y++) {
    const to = y * width;
    for (let x = 0; x < width; x++) out[to + x] = centre * src[to + x]!;
    for (let i = 1; i <= radius; i++) {
      const above = (y - i < 0 ? 0 : y - i) * width;
      const below = (y + i > last ? last : y + i) * width;
      const weight = half[i]!;
      for (let x = 0; x < width; x++) out[to + x]! += weight * (src[above + x]! + src[below + x]!);
    }
  }
}

/** Running-sum box average of each row, radius r (edges clamped). */
function boxRows(src: Float32Array, out: Float32Array, width: number, height: number, r: number): void {
  const size = 2 * r + 1;
  const last = width - 1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let sum = 0;
    for (let k = -r; k <= r; k++) sum += src[row + (k < 0 ? 0 : k > last ? last : k)]!;
    for (let x = 0; x < width; x++) {
      out[row + x] = sum / size;
      const add = x + r + 1;
      const remove = x - r;
      sum += src[row + (add > last ? last : add)]! - src[row + (remove < 0 ? 0 : remove)]!;
    }
  }
}

/** Running-sum box average of each column, radius r (edges clamped), kept for a whole row at once. */
function boxColumns(src: Float32Array, out: Float32Array, width: number, height: number, r: number): void {
  const size = 2 * r + 1;
  const last = height - 1;
  const sums = new Float64Array(width);
  for (let k = -r; k <= r; k++) {
    const from = (k < 0 ? 0 : k > last ? last : k) * width;
    for (let x = 0; x < width; x++) sums[x]! += src[from + x]!;
  }
  for (let y = 0; y < height; y++) {
    const to = y * width;
    const add = (y + r + 1 > last ? last : y + r + 1) * width;
    const remove = (y - r < 0 ? 0 : y - r) * width;
    for (let x = 0; x < width; x++) {
      out[to + x] = sums[x]! / size;
      sums[x]! += src[add + x]! - src[remove + x]!;
    }
  }
}

/**
 * `passes` box blurs of radius r, each along rows then columns (edges clamped), in O(n) whatever r;
 * two buffers whatever the number of passes.
 */
function boxBlurs(src: Float32Array, width: number, height: number, r: number, passes: number): Float32Array {
  const rows = new Float32Array(src.length);
  const out = new Float32Array(src.length);
  let input = src;
  for (let pass = 0; pass < passes; pass++) {
    boxRows(input, rows, width, height, r);
    boxColumns(rows, out, width, height, r);
    input = out;
  }
  return out;
}

/**
 * Gaussian blur of standard deviation `sigma` pixels (edges clamped). Exact separable kernel up to
 * σ = 2; above, three box blurs (within a few per cent of a Gaussian, and linear in time).
 */
export function gaussianBlur(src: Float32Array, width: number, height: number, sigma: number): Float32Array {
  if (sigma <= 0) return src.slice();
  if (sigma <= 2) {
    const half = gaussianKernel(sigma);
    const rows = new Float32Array(src.length);
    const out = new Float32Array(src.length);
    convolveRows(src, rows, width, height, half);
    convolveColumns(rows, out, width, height, half);
    return out;
  }
  // Three boxes of width w have variance 3·(w² − 1)/12 = σ².
  const r = Math.max(1, Math.round((Math.sqrt(4 * sigma * sigma + 1) - 1) / 2));
  return boxBlurs(src, width, height, r, 3);
}

/**
 * A cheaper smoothing of about the same width: two box passes (a triangular kernel, standard
 * deviation ≈ `sigma`). For local means and soft masks, where the exact shape does not matter.
 */
export function smoothBlur(src: Float32Array, width: number, height: number, sigma: number): Float32Array {
  if (sigma <= 0) return src.slice();
  // Two boxes of width w have variance 2·(w² − 1)/12 = σ².
  const r = Math.max(1, Math.round((Math.sqrt(6 * sigma * sigma + 1) - 1) / 2));
  return boxBlurs(src, width, height, r, 2);
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

/** Gradient magnitude by central differences (edges: one-sided), one value per pixel. */
function gradientMagnitude(src: Float32Array, width: number, height: number): Float32Array {
  const out = new Float32Array(src.length);
  for (let y = 0; y < height; y++) {
    const up = (y > 0 ? y - 1 : y) * width;
    const down = (y < height - 1 ? y + 1 : y) * width;
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const left = x > 0 ? x - 1 : x;
      const right = x < width - 1 ? x + 1 : x;
      const gx = (src[row + right]! - src[row + left]!) / Math.max(1, right - left);
      const gy = (src[down + x]! - src[up + x]!) / Math.max(1, (down - up) / width);
      out[row + x] = Math.sqrt(gx * gx + gy * gy);
    }
  }
  return out;
}

/**
 * How sharp the strongest edges inside `mask` are, whatever their contrast: the gradient read at a
 * fine scale (σ `fine` pixels) over the gradient read at a coarse one (σ `coarse`), on the `edgeShare`
 * of pixels with the strongest coarse gradient (the eyes, brows, lips and the face's outline). A blur
 * lowers the fine reading and barely the coarse one; a dimmer photo or a darker complexion lowers both
 * alike. Each reading first loses the typical gradient of the whole area (its median, mostly sensor
 * noise and skin grain) in quadrature, so noise is not taken for detail. About 1 for a blurred photo;
 * a step edge at the pixel's own sharpness gives ≈ (σc² + ½)^½ / (σf² + ½)^½.
 */
export function edgeSharpness(
  src: Float32Array,
  width: number,
  height: number,
  mask: Uint8Array,
  { fine = 0.5, coarse = 2, edgeShare = 0.05 } = {},
): number {
  const g1 = gradientMagnitude(gaussianBlur(src, width, height, fine), width, height);
  const g2 = gradientMagnitude(gaussianBlur(src, width, height, coarse), width, height);
  let count = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i] !== 0) count++;
  if (count < 16) return 0;
  const fineValues = new Float32Array(count);
  const coarseValues = new Float32Array(count);
  for (let i = 0, n = 0; i < mask.length; i++) {
    if (mask[i] === 0) continue;
    fineValues[n] = g1[i]!;
    coarseValues[n++] = g2[i]!;
  }
  const noiseFine = selectKth(fineValues.slice(), count >> 1);
  const noiseCoarse = selectKth(coarseValues.slice(), count >> 1);
  const threshold = selectKth(coarseValues.slice(), Math.floor(count * (1 - edgeShare)));
  let sumFine = 0;
  let sumCoarse = 0;
  for (let i = 0; i < mask.length; i++) {
    if (mask[i] === 0 || g2[i]! < threshold) continue;
    sumFine += Math.max(0, g1[i]! ** 2 - noiseFine ** 2);
    sumCoarse += Math.max(0, g2[i]! ** 2 - noiseCoarse ** 2);
  }
  return sumCoarse > 0 ? Math.sqrt(sumFine / sumCoarse) : 0;
}

/** The k-th smallest value (reorders `values`). */
function selectKth(values: Float32Array, k: number): number {
  values.sort();
  return values[Math.min(values.length - 1, Math.max(0, k))]!;
}
