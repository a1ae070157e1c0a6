// Photo variants made by code for the tests and the noise-floor benchmark: capture jitter (shift,
// scale, brightness, rotation, JPEG re-encode) and the bad photos the gates must refuse. Values are
// written to Uint8ClampedArray as they are: it rounds to the nearest code itself.

import type { RgbaImage } from '../src/contract.ts';
import { gaussianBlur } from '../src/filters.ts';
import { resampleAffine } from '../src/image.ts';
import { decodeImage, encodeJpeg } from './images.ts';

/** A small deterministic generator (mulberry32), so every run makes the same variants. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Jitter {
  /** Shift as a share of the width / height. */
  readonly dx: number;
  readonly dy: number;
  /** Zoom factor (1.05 = 5 % closer). */
  readonly scale: number;
  /** Brightness factor on the 8-bit values. */
  readonly brightness: number;
  /** Rotation in degrees. */
  readonly rotation: number;
  /** JPEG quality of the re-encode, or null for none. */
  readonly jpegQuality: number | null;
}

/** The capture jitter of the first noise-floor method (analysis skin-1; docs/skin-analysis.md § Noise floor). */
export function randomJitter(random: () => number): Jitter {
  const between = (low: number, high: number) => low + (high - low) * random();
  return {
    dx: between(-0.03, 0.03),
    dy: between(-0.03, 0.03),
    scale: between(0.95, 1.05),
    brightness: between(0.95, 1.05),
    rotation: between(-3, 3),
    jpegQuality: 85,
  };
}

/** The same framing transform a camera would see: zoom and rotate about the centre, then shift. */
export function transformImage(image: RgbaImage, jitter: Omit<Jitter, 'brightness' | 'jpegQuality'>): RgbaImage {
  const { width, height } = image;
  const angle = (jitter.rotation * Math.PI) / 180;
  const cos = Math.cos(angle) / jitter.scale;
  const sin = Math.sin(angle) / jitter.scale;
  const cx = width / 2;
  const cy = height / 2;
  const ox = cx - jitter.dx * width;
  const oy = cy - jitter.dy * height;
  // Output (x, y) → source: inverse rotation and zoom about the centre, after the shift.
  return resampleAffine(image, width, height, {
    a: cos,
    b: sin,
    c: cx - cos * ox - sin * oy,
    d: -sin,
    e: cos,
    f: cy + sin * ox - cos * oy,
  });
}

export function scaleBrightness(image: RgbaImage, factor: number): RgbaImage {
  const data = new Uint8ClampedArray(image.data.length);
  for (let i = 0; i < data.length; i++) data[i] = (i & 3) === 3 ? 255 : image.data[i]! * factor;
  return { width: image.width, height: image.height, data };
}

export function reencodeJpeg(image: RgbaImage, quality: number): RgbaImage {
  return decodeImage(encodeJpeg(image, quality), 'variant.jpg');
}

export function jitterImage(image: RgbaImage, jitter: Jitter): RgbaImage {
  let out = transformImage(image, jitter);
  if (jitter.brightness !== 1) out = scaleBrightness(out, jitter.brightness);
  if (jitter.jpegQuality !== null) out = reencodeJpeg(out, jitter.jpegQuality);
  return out;
}

/** Multiplies each channel (a colour cast of the light). */
export function tint(image: RgbaImage, [r, g, b]: readonly [number, number, number]): RgbaImage {
  const data = new Uint8ClampedArray(image.data.length);
  for (let i = 0; i < data.length; i += 4) {
    data[i] = image.data[i]! * r;
    data[i + 1] = image.data[i + 1]! * g;
    data[i + 2] = image.data[i + 2]! * b;
    data[i + 3] = 255;
  }
  return { width: image.width, height: image.height, data };
}

/** An out-of-focus copy: each channel blurred by a Gaussian of `sigma` pixels. */
export function blur(image: RgbaImage, sigma: number): RgbaImage {
  const n = image.width * image.height;
  const data = new Uint8ClampedArray(image.data.length);
  for (let c = 0; c < 3; c++) {
    const plane = new Float32Array(n);
    for (let i = 0; i < n; i++) plane[i] = image.data[i * 4 + c]!;
    const blurred = gaussianBlur(plane, image.width, image.height, sigma);
    for (let i = 0; i < n; i++) data[i * 4 + c] = blurred[i]!;
  }
  for (let i = 0; i < n; i++) data[i * 4 + 3] = 255;
  return { width: image.width, height: image.height, data };
}

/** Two photos side by side on one canvas (two people in one frame). */
export function sideBySide(left: RgbaImage, right: RgbaImage): RgbaImage {
  const width = left.width + right.width;
  const height = Math.max(left.height, right.height);
  const out = new Uint8ClampedArray(width * height * 4).fill(128);
  let x0 = 0;
  for (const image of [left, right]) {
    for (let y = 0; y < image.height; y++)
      out.set(image.data.subarray(y * image.width * 4, (y + 1) * image.width * 4), (y * width + x0) * 4);
    x0 += image.width;
  }
  return { width, height, data: out };
}

/** A part of a photo. */
export function cropImage(image: RgbaImage, x: number, y: number, width: number, height: number): RgbaImage {
  return resampleAffine(image, width, height, { a: 1, b: 0, c: x, d: 0, e: 1, f: y });
}
