// Reading and writing the fixtures (PNG, JPEG) as RgbaImage, for tests and benchmarks.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import jpeg from 'jpeg-js';
import type { RgbaImage } from '../src/contract.ts';

// pngjs ships no types: the part used here.
interface Png {
  width: number;
  height: number;
  data: Buffer;
}
const { PNG } = createRequire(import.meta.url)('pngjs') as {
  PNG: (new (options: { width: number; height: number }) => Png) & {
    sync: { read(buffer: Buffer): Png; write(png: Png): Buffer };
  };
};

export const FIXTURES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

export function decodeImage(bytes: Uint8Array, name: string): RgbaImage {
  if (name.toLowerCase().endsWith('.png')) {
    const png = PNG.sync.read(Buffer.from(bytes));
    return { width: png.width, height: png.height, data: new Uint8ClampedArray(png.data) };
  }
  const decoded = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true });
  return { width: decoded.width, height: decoded.height, data: new Uint8ClampedArray(decoded.data) };
}

export function readImage(file: string): RgbaImage {
  const full = path.isAbsolute(file) ? file : path.join(FIXTURES_DIR, file);
  return decodeImage(readFileSync(full), full);
}

export function encodePng(image: RgbaImage): Buffer {
  const png = new PNG({ width: image.width, height: image.height });
  png.data = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  return PNG.sync.write(png);
}

export function encodeJpeg(image: RgbaImage, quality: number): Uint8Array {
  return jpeg.encode({ width: image.width, height: image.height, data: image.data }, quality).data;
}
