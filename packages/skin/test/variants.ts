// Photo variants made by code for the tests and the noise-floor benchmark: capture jitter (shift,
// scale, brightness, rotation, JPEG re-encode) and the bad photos the gates must refuse.

import type { RgbaImage } from '../src/contract.ts';
import { linearToSrgb, SRGB8_TO_LINEAR } from '../src/colour.ts';
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

/** A wider re-capture: the framing jitter plus the light and the camera (docs/skin-analysis.md §Noise floor). */
export interface CaptureJitter extends Omit<Jitter, 'brightness' | 'jpegQuality'> {
  /** Exposure factor in linear light. */
  readonly exposure: number;
  /** White balance: gains on linear red and blue (green 1). */
  readonly warm: number;
  /** Sensor noise σ, 8-bit units. */
  readonly noise: number;
  /** JPEG quality of the re-encode, with 4:2:0 chroma. */
  readonly jpegQuality: number;
  readonly seed: number;
}

/** The floors' re-capture: shift ±3 %, zoom ±5 %, rotation ±3°, exposure ±10 %, white balance ±4 %, noise σ 0–2, JPEG 70–90 at 4:2:0. */
export function randomCaptureJitter(random: () => number): CaptureJitter {
  const between = (low: number, high: number) => low + (high - low) * random();
  return {
    dx: between(-0.03, 0.03),
    dy: between(-0.03, 0.03),
    scale: between(0.95, 1.05),
    rotation: between(-3, 3),
    exposure: between(0.9, 1.1),
    warm: between(-0.04, 0.04),
    noise: between(0, 2),
    jpegQuality: Math.round(between(70, 90)),
    seed: Math.floor(random() * 2 ** 31),
  };
}

export function captureJitterImage(image: RgbaImage, jitter: CaptureJitter): RgbaImage {
  let out = transformImage(image, jitter);
  out = linearGains(out, [jitter.exposure * (1 + jitter.warm), jitter.exposure, jitter.exposure * (1 - jitter.warm)]);
  if (jitter.noise > 0) out = addNoise(out, jitter.noise, jitter.seed);
  return jpeg420(out, jitter.jpegQuality);
}

/** Gains on linear R, G, B (exposure, white balance), back to 8-bit sRGB with clipping. */
export function linearGains(image: RgbaImage, gains: readonly [number, number, number]): RgbaImage {
  const data = new Uint8ClampedArray(image.data.length);
  for (let i = 0; i < data.length; i++) {
    const c = i & 3;
    data[i] = c === 3 ? 255 : linearToSrgb(SRGB8_TO_LINEAR[image.data[i]!]! * gains[c as 0 | 1 | 2]) * 255 + 0.5;
  }
  return { width: image.width, height: image.height, data };
}

/** Gaussian noise of σ (8-bit units), each channel on its own, seeded. */
export function addNoise(image: RgbaImage, sigma: number, seed: number): RgbaImage {
  const random = seededRandom(seed);
  const data = new Uint8ClampedArray(image.data.length);
  for (let i = 0; i < data.length; i++) {
    if ((i & 3) === 3) {
      data[i] = 255;
      continue;
    }
    const gauss = Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
    data[i] = image.data[i]! + sigma * gauss + 0.5;
  }
  return { width: image.width, height: image.height, data };
}

/**
 * A JPEG with 4:2:0 chroma, as phones write them. The encoder installed (jpeg-js) keeps full-resolution
 * chroma, so the chroma is first averaged over 2 × 2 blocks in YCbCr (JFIF) and spread back bilinearly.
 */
export function jpeg420(image: RgbaImage, quality: number): RgbaImage {
  const { width, height } = image;
  const n = width * height;
  const Y = new Float32Array(n);
  const cb = new Float32Array(n);
  const cr = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const r = image.data[i * 4]!;
    const g = image.data[i * 4 + 1]!;
    const b = image.data[i * 4 + 2]!;
    Y[i] = 0.299 * r + 0.587 * g + 0.114 * b;
    cb[i] = -0.168736 * r - 0.331264 * g + 0.5 * b;
    cr[i] = 0.5 * r - 0.418688 * g - 0.081312 * b;
  }
  const hw = Math.ceil(width / 2);
  const hh = Math.ceil(height / 2);
  const down = (plane: Float32Array) => {
    const out = new Float32Array(hw * hh);
    for (let y = 0; y < hh; y++)
      for (let x = 0; x < hw; x++) {
        let sum = 0;
        let count = 0;
        for (let dy = 0; dy < 2; dy++)
          for (let dx = 0; dx < 2; dx++) {
            const sx = 2 * x + dx;
            const sy = 2 * y + dy;
            if (sx < width && sy < height) {
              sum += plane[sy * width + sx]!;
              count++;
            }
          }
        out[y * hw + x] = sum / count;
      }
    return out;
  };
  const up = (small: Float32Array, x: number, y: number) => {
    const fx = Math.min(hw - 1, Math.max(0, (x - 0.5) / 2));
    const fy = Math.min(hh - 1, Math.max(0, (y - 0.5) / 2));
    const x0 = Math.floor(fx);
    const y0 = Math.floor(fy);
    const x1 = Math.min(hw - 1, x0 + 1);
    const y1 = Math.min(hh - 1, y0 + 1);
    const tx = fx - x0;
    const ty = fy - y0;
    const top = small[y0 * hw + x0]! * (1 - tx) + small[y0 * hw + x1]! * tx;
    const bottom = small[y1 * hw + x0]! * (1 - tx) + small[y1 * hw + x1]! * tx;
    return top * (1 - ty) + bottom * ty;
  };
  const cbSmall = down(cb);
  const crSmall = down(cr);
  const data = new Uint8ClampedArray(n * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const b2 = up(cbSmall, x, y);
      const r2 = up(crSmall, x, y);
      data[i * 4] = Y[i]! + 1.402 * r2 + 0.5;
      data[i * 4 + 1] = Y[i]! - 0.344136 * b2 - 0.714136 * r2 + 0.5;
      data[i * 4 + 2] = Y[i]! + 1.772 * b2 + 0.5;
      data[i * 4 + 3] = 255;
    }
  return reencodeJpeg({ width, height, data }, quality);
}

/** The capture jitter of the first noise-floor method (SKIN-APP brief §7). */
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
  for (let i = 0; i < data.length; i++) data[i] = (i & 3) === 3 ? 255 : image.data[i]! * factor + 0.5;
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
    data[i] = image.data[i]! * r + 0.5;
    data[i + 1] = image.data[i + 1]! * g + 0.5;
    data[i + 2] = image.data[i + 2]! * b + 0.5;
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
    for (let i = 0; i < n; i++) data[i * 4 + c] = blurred[i]! + 0.5;
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
