import { Resvg, renderAsync } from '@resvg/resvg-js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { BANNER_SIZES, type BannerSize } from '@skanova/shared/marketing/constants';
import { LANGUAGES } from '@skanova/shared/site/constants';
import { RESVG_OPTIONS, bannerSvg, rasterise } from '../src/features/marketing/banner-image.ts';
import { printable } from '../src/features/marketing/print-documents.ts';
import { pngSize } from './helpers/marketing-files.ts';

// How the server draws: text needs the fonts shipped with the project (a fresh machine may have
// none), and the print documents' standard fonts accept only WinAnsi characters.

const TEXT_ONLY = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40" viewBox="0 0 200 40">
<rect width="200" height="40" fill="#ffffff"/>
<text x="10" y="28" font-family="DejaVu Sans, Verdana, Arial, sans-serif" font-size="20" font-weight="700" fill="#000000">K7M2QX4P é</text>
</svg>`;

/** Pixels clearly darker than the white background. */
function darkPixels(rgba: Buffer): number {
  let count = 0;
  for (let index = 0; index < rgba.length; index += 4) if ((rgba[index] ?? 255) < 128) count += 1;
  return count;
}

describe('banner rasterisation', () => {
  it('draws text with the bundled font, without any system font', async () => {
    const withBundled = await renderAsync(TEXT_ONLY, RESVG_OPTIONS);
    const withoutFonts = await renderAsync(TEXT_ONLY, { ...RESVG_OPTIONS, font: { loadSystemFonts: false } });
    expect(RESVG_OPTIONS.font.loadSystemFonts).toBe(false);
    expect(darkPixels(withBundled.pixels)).toBeGreaterThan(300);
    expect(darkPixels(withoutFonts.pixels)).toBe(0);
  });

  it('renders a banner at its full size, and its texts change the image', async () => {
    const settings = { brand: 'Skanova', publicUrl: 'https://skanova.example' };
    const svg = bannerSvg({ code: 'K7M2QX4P', size: 'square', theme: 'dark', lang: 'en' }, settings);
    const withoutText = svg.replace(/<text\b[^>]*>[^<]*<\/text>/g, '');
    expect(withoutText).not.toBe(svg);
    const png = await rasterise(svg);
    expect(pngSize(png)).toEqual({ width: 300, height: 250 });
    expect(png.equals(await rasterise(withoutText))).toBe(false);
  });
});

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The real box of one <text> element of a banner, drawn alone with the bundled fonts. */
function textBox(element: string, width: number, height: number): Rect {
  const box = new Resvg(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${element}</svg>`,
    RESVG_OPTIONS,
  ).getBBox();
  if (!box) throw new Error(`nothing drawn for ${element}`);
  return { x: box.x, y: box.y, width: box.width, height: box.height };
}

const inside = (inner: Rect, outer: Rect) =>
  inner.x >= outer.x &&
  inner.y >= outer.y &&
  inner.x + inner.width <= outer.x + outer.width &&
  inner.y + inner.height <= outer.y + outer.height;
const overlap = (a: Rect, b: Rect) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('banner layouts, measured with the real font', () => {
  const cases = [
    ...LANGUAGES.map((lang) => ({ name: lang, lang, brand: 'Skanova', code: 'K7M2QX4P' })),
    {
      name: 'a long brand and a long code',
      lang: 'fr' as const,
      brand: 'Laboratoires Dermatologiques de la Côte Atlantique Réunis',
      code: 'ABCDEFGHJKMNPQRSTUVWXYZ234567892',
    },
  ];
  for (const { name, lang, brand, code } of cases) {
    for (const size of Object.keys(BANNER_SIZES) as BannerSize[]) {
      it(`${size}, ${name}: every text inside the banner, inside its box or clear of every box`, () => {
        const { width, height } = BANNER_SIZES[size];
        const svg = bannerSvg({ code, size, theme: 'dark', lang }, { brand, publicUrl: 'https://skanova.example' });
        // The QR tile, the code box and the button: the rounded rectangles.
        const boxes = [...svg.matchAll(/<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" rx=/g)].map(
          (match) => ({
            x: Number(match[1]),
            y: Number(match[2]),
            width: Number(match[3]),
            height: Number(match[4]),
          }),
        );
        expect(boxes.length).toBeGreaterThanOrEqual(size === 'mobile' ? 2 : 3);
        const texts = [...svg.matchAll(/<text\b[^>]*>[^<]*<\/text>/g)].map((match) => match[0]);
        expect(texts.join('')).toContain(code);
        for (const text of texts) {
          const box = textBox(text, width, height);
          expect(inside(box, { x: 0, y: 0, width, height }), `${text} leaves the banner`).toBe(true);
          const container = boxes.find((candidate) => inside(box, candidate));
          if (!container)
            expect(
              boxes.filter((candidate) => overlap(box, candidate)),
              `${text} overlaps`,
            ).toEqual([]);
        }
      });
    }
  }
});

describe('printable text for the standard PDF fonts', () => {
  it('keeps French, replaces narrow spaces and drops what WinAnsi lacks', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    expect(printable('Été à l’œil : ça « marche » – 100 €', font)).toBe('Été à l’œil : ça « marche » – 100 €');
    expect(printable('Scannez\u202f! 🤳 ✓', font)).toBe('Scannez\u00a0!  ');
    // ř decomposes into r + caron and keeps its letter; Ł does not decompose and is left out.
    expect(printable('Dvořák, Łódź', font)).toBe('Dvorák, ódz');
    // What printable returns can be written.
    expect(() => font.encodeText(printable('Scannez\u202f! 🤳 Łódź ✓ 漢字', font))).not.toThrow();
  });
});
