// Colour maths: sRGB (8-bit, IEC 61966-2-1) → linear RGB → CIE XYZ (D65) → CIELAB (D65 white) and
// back, and grey-world colour normalisation. Pure functions over numbers and typed arrays.

import type { RgbaImage } from './contract.ts';

/** The D65 reference white of sRGB, Y = 1. */
export const D65_WHITE = [0.95047, 1, 1.08883] as const;

export function srgbToLinear(value: number): number {
  return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
}

export function linearToSrgb(value: number): number {
  return value <= 0.0031308 ? value * 12.92 : 1.055 * value ** (1 / 2.4) - 0.055;
}

/** Linear value of each 8-bit sRGB code. */
export const SRGB8_TO_LINEAR: Float32Array = (() => {
  const table = new Float32Array(256);
  for (let i = 0; i < 256; i++) table[i] = srgbToLinear(i / 255);
  return table;
})();

/** Linear RGB (0–1) → XYZ (D65), the sRGB primaries' matrix. */
export function linearRgbToXyz(r: number, g: number, b: number): [number, number, number] {
  return [
    0.4124564 * r + 0.3575761 * g + 0.1804375 * b,
    0.2126729 * r + 0.7151522 * g + 0.072175 * b,
    0.0193339 * r + 0.119192 * g + 0.9503041 * b,
  ];
}

const EPSILON = 216 / 24389;
const KAPPA = 24389 / 27;

function labF(t: number): number {
  return t > EPSILON ? Math.cbrt(t) : (KAPPA * t + 16) / 116;
}

/** XYZ → CIELAB relative to a white (D65 by default). */
export function xyzToLab(
  x: number,
  y: number,
  z: number,
  white: readonly number[] = D65_WHITE,
): [number, number, number] {
  const fx = labF(x / white[0]!);
  const fy = labF(y / white[1]!);
  const fz = labF(z / white[2]!);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/** The inverse of `labF`: t from f(t), on both branches (the cube above ε, the line below it). */
function labFInverse(f: number): number {
  const cube = f * f * f;
  return cube > EPSILON ? cube : (116 * f - 16) / KAPPA;
}

/** CIELAB → XYZ relative to a white (D65 by default): the inverse of `xyzToLab`. */
export function labToXyz(
  L: number,
  a: number,
  b: number,
  white: readonly number[] = D65_WHITE,
): [number, number, number] {
  const fy = (L + 16) / 116;
  const fx = fy + a / 500;
  const fz = fy - b / 200;
  return [labFInverse(fx) * white[0]!, labFInverse(fy) * white[1]!, labFInverse(fz) * white[2]!];
}

/**
 * XYZ (D65) → linear RGB: the inverse of `linearRgbToXyz`'s matrix, computed from it (not the rounded
 * published one), so a round trip returns the same numbers to float precision.
 */
const XYZ_TO_LINEAR: readonly number[] = (() => {
  const m = [0.4124564, 0.3575761, 0.1804375, 0.2126729, 0.7151522, 0.072175, 0.0193339, 0.119192, 0.9503041];
  const [a, b, c, d, e, f, g, h, i] = m as [number, number, number, number, number, number, number, number, number];
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  return [
    (e * i - f * h) / det,
    (c * h - b * i) / det,
    (b * f - c * e) / det,
    (f * g - d * i) / det,
    (a * i - c * g) / det,
    (c * d - a * f) / det,
    (d * h - e * g) / det,
    (b * g - a * h) / det,
    (a * e - b * d) / det,
  ];
})();

export function xyzToLinearRgb(x: number, y: number, z: number): [number, number, number] {
  const m = XYZ_TO_LINEAR;
  return [m[0]! * x + m[1]! * y + m[2]! * z, m[3]! * x + m[4]! * y + m[5]! * z, m[6]! * x + m[7]! * y + m[8]! * z];
}

/** A linear value (0–1) → its nearest 8-bit sRGB code, clipped to 0–255 (outside the gamut a channel clips). */
export function linearToSrgb8(value: number): number {
  if (!(value > 0)) return 0;
  if (value >= 1) return 255;
  return Math.round(linearToSrgb(value) * 255);
}

/**
 * CIELAB (D65) → 8-bit sRGB, each channel rounded to the nearest code and clipped: the inverse of
 * `srgb8ToLab` (a round trip returns the same codes). A colour outside the sRGB gamut clips per
 * channel, which moves its hue a little: callers that must keep the hue stay inside the gamut.
 */
export function labToSrgb8(L: number, a: number, b: number): [number, number, number] {
  const [r, g, bl] = xyzToLinearRgb(...labToXyz(L, a, b));
  return [linearToSrgb8(r), linearToSrgb8(g), linearToSrgb8(bl)];
}

/** 8-bit sRGB → CIELAB (D65). */
export function srgb8ToLab(r: number, g: number, b: number): [number, number, number] {
  const [x, y, z] = linearRgbToXyz(SRGB8_TO_LINEAR[r]!, SRGB8_TO_LINEAR[g]!, SRGB8_TO_LINEAR[b]!);
  return xyzToLab(x, y, z);
}

/** An image as three CIELAB planes. */
export interface LabImage {
  readonly width: number;
  readonly height: number;
  readonly L: Float32Array;
  readonly a: Float32Array;
  readonly b: Float32Array;
}

/** Gains on linear R, G, B (von Kries on the camera's channels) applied before the conversion. */
export type Gains = readonly [number, number, number];

// f(t) of CIELAB tabulated over t ∈ [0, 1.25] (gains may lift a channel above white a little).
const F_STEPS = 4096;
const F_MAX = 1.25;
const F_TABLE = (() => {
  const table = new Float32Array(F_STEPS + 2);
  for (let i = 0; i <= F_STEPS + 1; i++) table[i] = labF((i / F_STEPS) * F_MAX);
  return table;
})();

function fastF(t: number): number {
  if (t <= 0) return labF(t);
  const position = (t / F_MAX) * F_STEPS;
  if (position >= F_STEPS) return labF(t);
  const i = position | 0;
  const frac = position - i;
  return F_TABLE[i]! + (F_TABLE[i + 1]! - F_TABLE[i]!) * frac;
}

/** The whole image in CIELAB (optionally after linear-RGB gains); within 0.01 of `srgb8ToLab`. */
export function imageToLab(image: RgbaImage, gains: Gains = [1, 1, 1]): LabImage {
  const n = image.width * image.height;
  const L = new Float32Array(n);
  const A = new Float32Array(n);
  const B = new Float32Array(n);
  const data = image.data;
  const [gr, gg, gb] = gains;
  const wx = 1 / D65_WHITE[0];
  const wz = 1 / D65_WHITE[2];
  for (let i = 0, p = 0; i < n; i++, p += 4) {
    const r = SRGB8_TO_LINEAR[data[p]!]! * gr;
    const g = SRGB8_TO_LINEAR[data[p + 1]!]! * gg;
    const b = SRGB8_TO_LINEAR[data[p + 2]!]! * gb;
    const fx = fastF((0.4124564 * r + 0.3575761 * g + 0.1804375 * b) * wx);
    const fy = fastF(0.2126729 * r + 0.7151522 * g + 0.072175 * b);
    const fz = fastF((0.0193339 * r + 0.119192 * g + 0.9503041 * b) * wz);
    L[i] = 116 * fy - 16;
    A[i] = 500 * (fx - fy);
    B[i] = 200 * (fy - fz);
  }
  return { width: image.width, height: image.height, L, a: A, b: B };
}

/** L* of every pixel (no normalisation). */
export function imageToLightness(image: RgbaImage): Float32Array {
  const n = image.width * image.height;
  const L = new Float32Array(n);
  const data = image.data;
  for (let i = 0, p = 0; i < n; i++, p += 4) {
    const y =
      0.2126729 * SRGB8_TO_LINEAR[data[p]!]! +
      0.7151522 * SRGB8_TO_LINEAR[data[p + 1]!]! +
      0.072175 * SRGB8_TO_LINEAR[data[p + 2]!]!;
    L[i] = 116 * fastF(y) - 16;
  }
  return L;
}

/** Mean linear R, G, B of the pixels (all, or those where `mask` is non-zero). */
export function meanLinearRgb(image: RgbaImage, mask?: Uint8Array): [number, number, number] {
  let r = 0;
  let g = 0;
  let b = 0;
  let count = 0;
  const data = image.data;
  for (let i = 0, p = 0; p < data.length; i++, p += 4) {
    if (mask && mask[i] === 0) continue;
    r += SRGB8_TO_LINEAR[data[p]!]!;
    g += SRGB8_TO_LINEAR[data[p + 1]!]!;
    b += SRGB8_TO_LINEAR[data[p + 2]!]!;
    count++;
  }
  if (count === 0) return [0, 0, 0];
  return [r / count, g / count, b / count];
}

/**
 * Grey-world gains: the scene's mean is assumed neutral, so each channel is scaled to the mean of
 * the three. `limit` bounds each gain to [1/limit, limit]: a gentle correction, never a repainting
 * (a photo whose cast is beyond it is refused by the colour-cast gate instead).
 */
export function greyWorldGains(mean: readonly [number, number, number], limit = 1.2): Gains {
  const grey = (mean[0] + mean[1] + mean[2]) / 3;
  if (grey <= 0) return [1, 1, 1];
  const clamp = (gain: number) => Math.min(limit, Math.max(1 / limit, gain));
  return [
    clamp(grey / Math.max(mean[0], 1e-6)),
    clamp(grey / Math.max(mean[1], 1e-6)),
    clamp(grey / Math.max(mean[2], 1e-6)),
  ];
}

/** The chroma C*ab of a mean linear colour: 0 for a neutral grey, how strong a colour cast is. */
export function castChroma(mean: readonly [number, number, number]): number {
  const grey = (mean[0] + mean[1] + mean[2]) / 3;
  if (grey <= 0) return 0;
  // Normalised to the same luminance so only the hue balance counts.
  const scale = 0.18 / grey;
  const [x, y, z] = linearRgbToXyz(mean[0] * scale, mean[1] * scale, mean[2] * scale);
  const [, a, b] = xyzToLab(x, y, z);
  return Math.hypot(a, b);
}
