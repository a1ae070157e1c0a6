import { describe, expect, it } from 'vitest';
import {
  castChroma,
  greyWorldGains,
  imageToLab,
  labToSrgb8,
  labToXyz,
  linearRgbToXyz,
  linearToSrgb,
  linearToSrgb8,
  srgb8ToLab,
  srgbToLinear,
  xyzToLab,
  xyzToLinearRgb,
} from '../src/colour.ts';

// Reference values: IEC 61966-2-1 (sRGB), CIE 15 (CIELAB), D65 white (0.95047, 1, 1.08883).
describe('colour conversions', () => {
  it('sRGB ↔ linear follows the standard curve, both ways', () => {
    expect(srgbToLinear(0)).toBe(0);
    expect(srgbToLinear(1)).toBeCloseTo(1, 10);
    expect(srgbToLinear(0.04045)).toBeCloseTo(0.0031308, 6);
    expect(srgbToLinear(0.5)).toBeCloseTo(0.21404, 5);
    for (const v of [0, 0.01, 0.2, 0.5, 0.9, 1]) expect(linearToSrgb(srgbToLinear(v))).toBeCloseTo(v, 6);
  });

  it('linear RGB → XYZ gives the D65 white and the sRGB primaries', () => {
    const [x, y, z] = linearRgbToXyz(1, 1, 1);
    expect(x).toBeCloseTo(0.95047, 4);
    expect(y).toBeCloseTo(1, 4);
    expect(z).toBeCloseTo(1.08883, 3);
    const red = linearRgbToXyz(1, 0, 0);
    expect(red[0]).toBeCloseTo(0.4124564, 6);
    expect(red[1]).toBeCloseTo(0.2126729, 6);
  });

  it('XYZ → CIELAB: the white is L* 100, a* b* 0; 18 % grey is L* ≈ 49.5', () => {
    const white = xyzToLab(0.95047, 1, 1.08883);
    expect(white[0]).toBeCloseTo(100, 6);
    expect(white[1]).toBeCloseTo(0, 6);
    expect(white[2]).toBeCloseTo(0, 6);
    expect(xyzToLab(0.95047 * 0.18, 0.18, 1.08883 * 0.18)[0]).toBeCloseTo(49.496, 2);
    // Below the CIE's ε the curve is linear: Y = 0.001 → L* = 903.3 × 0.001.
    expect(xyzToLab(0.00095047, 0.001, 0.00108883)[0]).toBeCloseTo(0.9033, 3);
  });

  it.each([
    [
      [255, 255, 255],
      [100, 0, 0],
    ],
    [
      [0, 0, 0],
      [0, 0, 0],
    ],
    [
      [128, 128, 128],
      [53.585, 0, 0],
    ],
    [
      [255, 0, 0],
      [53.241, 80.092, 67.203],
    ],
    [
      [0, 255, 0],
      [87.735, -86.183, 83.179],
    ],
    [
      [0, 0, 255],
      [32.297, 79.188, -107.86],
    ],
    [
      [255, 255, 0],
      [97.139, -21.554, 94.478],
    ],
  ])('sRGB %j → CIELAB %j', (rgb, lab) => {
    const [L, a, b] = srgb8ToLab(rgb[0]!, rgb[1]!, rgb[2]!);
    expect(L).toBeCloseTo(lab[0]!, 1);
    expect(a).toBeCloseTo(lab[1]!, 1);
    expect(b).toBeCloseTo(lab[2]!, 1);
  });

  it('CIELAB → XYZ → linear RGB invert the forward conversions', () => {
    for (const xyz of [
      [0.95047, 1, 1.08883],
      [0.2, 0.18, 0.1],
      [0.001, 0.0009, 0.0012],
      [0, 0, 0],
    ] as const) {
      const back = labToXyz(...xyzToLab(xyz[0], xyz[1], xyz[2]));
      for (let i = 0; i < 3; i++) expect(back[i]).toBeCloseTo(xyz[i]!, 12);
    }
    for (const rgb of [
      [1, 1, 1],
      [1, 0, 0],
      [0.3, 0.6, 0.05],
    ] as const) {
      const back = xyzToLinearRgb(...linearRgbToXyz(rgb[0], rgb[1], rgb[2]));
      for (let i = 0; i < 3; i++) expect(back[i]).toBeCloseTo(rgb[i]!, 12);
    }
    expect(linearToSrgb8(-0.1)).toBe(0);
    expect(linearToSrgb8(1.3)).toBe(255);
    expect(linearToSrgb8(srgbToLinear(128 / 255))).toBe(128);
  });

  it.each([
    [
      [100, 0, 0],
      [255, 255, 255],
    ],
    [
      [53.241, 80.092, 67.203],
      [255, 0, 0],
    ],
    [
      [87.735, -86.183, 83.179],
      [0, 255, 0],
    ],
    [
      [32.297, 79.188, -107.86],
      [0, 0, 255],
    ],
    // Skin, checked against the published inverse matrix (Lindbloom's, D65): 181.6, 134.2, 110.2.
    [
      [60, 15, 20],
      [182, 134, 110],
    ],
  ])('CIELAB %j → sRGB %j', (lab, rgb) => {
    expect(labToSrgb8(lab[0]!, lab[1]!, lab[2]!)).toEqual(rgb);
  });

  it('sRGB → CIELAB → sRGB returns every code (a grid over the cube, and the greys)', () => {
    let checked = 0;
    for (let r = 0; r < 256; r += 5)
      for (let g = 0; g < 256; g += 5)
        for (let b = 0; b < 256; b += 5) {
          const back = labToSrgb8(...srgb8ToLab(r, g, b));
          if (back[0] !== r || back[1] !== g || back[2] !== b) expect(back).toEqual([r, g, b]);
          checked++;
        }
    for (let v = 0; v < 256; v++) expect(labToSrgb8(...srgb8ToLab(v, v, v))).toEqual([v, v, v]);
    expect(checked).toBe(52 ** 3);
  });

  it('a change in CIELAB survives the round trip: Δa* and ΔL* on skin read back within 8-bit rounding', () => {
    const skin = srgb8ToLab(200, 150, 130);
    const redder = srgb8ToLab(...labToSrgb8(skin[0], skin[1] + 4, skin[2]));
    expect(redder[1] - skin[1]).toBeCloseTo(4, 0);
    expect(Math.abs(redder[0] - skin[0])).toBeLessThan(0.3);
    const darker = srgb8ToLab(...labToSrgb8(skin[0] - 10, skin[1], skin[2]));
    expect(darker[0] - skin[0]).toBeCloseTo(-10, 0);
  });

  it('outside the gamut each channel clips', () => {
    expect(labToSrgb8(50, 120, 0)[0]).toBe(255);
    expect(labToSrgb8(-5, 0, 0)).toEqual([0, 0, 0]);
    expect(labToSrgb8(120, 0, 0)).toEqual([255, 255, 255]);
  });

  it('the whole-image conversion matches the per-pixel one within 0.02', () => {
    const data = new Uint8ClampedArray(64 * 4);
    for (let i = 0; i < 64; i++) data.set([(i * 37) % 256, (i * 91) % 256, (i * 53) % 256, 255], i * 4);
    const lab = imageToLab({ width: 8, height: 8, data });
    for (let i = 0; i < 64; i++) {
      const [L, a, b] = srgb8ToLab(data[i * 4]!, data[i * 4 + 1]!, data[i * 4 + 2]!);
      expect(Math.abs(lab.L[i]! - L)).toBeLessThan(0.02);
      expect(Math.abs(lab.a[i]! - a)).toBeLessThan(0.02);
      expect(Math.abs(lab.b[i]! - b)).toBeLessThan(0.02);
    }
  });

  it('grey-world gains neutralise a mild cast and are bounded for a strong one', () => {
    for (const gain of greyWorldGains([0.2, 0.2, 0.2])) expect(gain).toBeCloseTo(1, 9);
    const mild = greyWorldGains([0.22, 0.2, 0.18]);
    expect(0.22 * mild[0]).toBeCloseTo(0.2, 6);
    expect(0.18 * mild[2]).toBeCloseTo(0.2, 6);
    const strong = greyWorldGains([0.4, 0.2, 0.05]);
    expect(Math.max(...strong)).toBeCloseTo(1.2, 6);
    expect(Math.min(...strong)).toBeCloseTo(1 / 1.2, 6);
  });

  it('a neutral mean has no cast; a coloured one has', () => {
    expect(castChroma([0.3, 0.3, 0.3])).toBeLessThan(0.01);
    expect(castChroma([0.3, 0.25, 0.12])).toBeGreaterThan(20);
  });
});
