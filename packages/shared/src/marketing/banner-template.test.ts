import { describe, expect, it } from 'vitest';
import { BANNER_PREVIEW_SCALE, BANNER_SIZES, BANNER_THEMES, type BannerSize } from './constants.ts';
import en from '../i18n/en/marketing.json';
import fr from '../i18n/fr/marketing.json';
import {
  BANNER_EDGE_MARGIN,
  BANNER_THEME_COLORS,
  type BannerTexts,
  bannerBoxes,
  renderBannerSvg,
} from './banner-template.ts';
import { qrPathData } from './qr-matrix.ts';
import { textWidth } from './text-fit.ts';

const texts: BannerTexts = en.banner;
const qr = [
  [true, false, true],
  [false, true, false],
  [true, true, true],
];
const sizes = Object.keys(BANNER_SIZES) as BannerSize[];

describe('banner template', () => {
  for (const size of sizes) {
    for (const theme of BANNER_THEMES) {
      it(`${size} ${theme}: full-size canvas, the code, the QR code and the theme's colours`, () => {
        const { width, height } = BANNER_SIZES[size];
        const svg = renderBannerSvg({ size, theme, code: 'K7M2QX4P', brand: 'Skanova', texts, qr });
        expect(svg).toMatch(
          new RegExp(`^<svg [^>]*width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"`),
        );
        expect(svg).toMatch(/>K7M2QX4P<\/text>/);
        expect(svg).toContain(`d="${qrPathData(qr)}"`);
        expect(svg).toContain(`stop-color="${BANNER_THEME_COLORS[theme].backgroundFrom}"`);
        expect(svg).toContain(`fill="${BANNER_THEME_COLORS[theme].qrForeground}"`);
      });
    }
  }

  it('draws the preview at half size with the same drawing', () => {
    const full = renderBannerSvg({
      size: 'horizontal',
      theme: 'purple',
      code: 'K7M2QX4P',
      brand: 'Skanova',
      texts,
      qr,
    });
    const half = renderBannerSvg({
      size: 'horizontal',
      theme: 'purple',
      code: 'K7M2QX4P',
      brand: 'Skanova',
      texts,
      qr,
      scale: BANNER_PREVIEW_SCALE,
    });
    expect(half).toMatch(/^<svg [^>]*width="364" height="45" viewBox="0 0 728 90"/);
    expect(half.replace(/width="364" height="45"/, 'width="728" height="90"')).toBe(full);
  });

  it('leaves the QR code out when there is none, and the button out of the mobile banner', () => {
    const svg = renderBannerSvg({
      size: 'square',
      theme: 'light',
      code: 'K7M2QX4P',
      brand: 'Skanova',
      texts,
      qr: null,
    });
    expect(svg).not.toContain('scale(');
    const mobile = renderBannerSvg({ size: 'mobile', theme: 'light', code: 'K7M2QX4P', brand: 'Skanova', texts, qr });
    expect(mobile).not.toContain(`>${texts.cta}<`);
    expect(
      renderBannerSvg({ size: 'square', theme: 'light', code: 'K7M2QX4P', brand: 'Skanova', texts, qr }),
    ).toContain(`>${texts.cta}<`);
  });

  it('escapes every text it is given and names the image', () => {
    const svg = renderBannerSvg({
      size: 'vertical',
      theme: 'dark',
      code: 'K7M2QX4P',
      brand: 'A&B <Co>',
      texts: { ...texts, headline: '<script>alert(1)</script>' },
      qr,
      title: 'Banner "K7M2QX4P"',
    });
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;');
    expect(svg).toContain('A&amp;B &lt;Co&gt;');
    expect(svg).toContain('role="img" aria-label="Banner &quot;K7M2QX4P&quot;"');
    expect(svg).toContain('<title>Banner &quot;K7M2QX4P&quot;</title>');
  });
});

describe('banner geometry', () => {
  // A referral link's QR code at level H is about 41 modules wide.
  const realQr = Array.from({ length: 41 }, (_, row) =>
    Array.from({ length: 41 }, (_, column) => (row + column) % 3 === 0),
  );
  const languages = { fr: fr.banner, en: en.banner };
  const margins = (box: { x: number; y: number; width: number; height: number }, width: number, height: number) => [
    box.x,
    box.y,
    width - (box.x + box.width),
    height - (box.y + box.height),
  ];
  const number = (text: string | undefined) => Number(text);

  for (const size of sizes) {
    for (const theme of BANNER_THEMES) {
      for (const [lang, bannerTexts] of Object.entries(languages)) {
        it(`${size} ${theme} (${lang}): the QR code and the call to action keep ${BANNER_EDGE_MARGIN} px from every edge`, () => {
          const { width, height } = BANNER_SIZES[size];
          const boxes = bannerBoxes(size);
          const svg = renderBannerSvg({
            size,
            theme,
            code: 'K7M2QX4P',
            brand: 'Skanova',
            texts: bannerTexts,
            qr: realQr,
          });

          // The QR tile as drawn, and its modules inside it.
          const tile =
            /<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" rx="[\d.]+" fill="#ffffff"[^>]*\/><path transform="translate\(([\d.]+) ([\d.]+)\) scale\(([\d.]+)\)"/.exec(
              svg,
            );
          if (boxes.qr) {
            expect(tile, 'QR tile drawn').not.toBeNull();
            const [x, y, w, h, tx, ty, scale] = tile!.slice(1).map(number) as [
              number,
              number,
              number,
              number,
              number,
              number,
              number,
            ];
            expect({ x, y, width: w, height: h }).toEqual(boxes.qr);
            for (const margin of margins(boxes.qr, width, height))
              expect(margin).toBeGreaterThanOrEqual(BANNER_EDGE_MARGIN);
            expect(tx).toBeGreaterThan(x);
            expect(ty).toBeGreaterThan(y);
            expect(tx + realQr.length * scale).toBeLessThanOrEqual(x + w + 0.01);
            expect(ty + realQr.length * scale).toBeLessThanOrEqual(y + h + 0.01);
          } else {
            expect(tile).toBeNull();
          }

          // The button as drawn, with its whole label inside the pill.
          const colors = BANNER_THEME_COLORS[theme];
          const cta = new RegExp(
            `<rect x="([\\d.]+)" y="([\\d.]+)" width="([\\d.]+)" height="([\\d.]+)" rx="[\\d.]+" fill="${colors.ctaBackground}"/><text x="([\\d.]+)" y="[\\d.]+" font-size="([\\d.]+)"[^>]*>([^<]*)</text>`,
          ).exec(svg);
          if (boxes.cta) {
            expect(cta, 'button drawn').not.toBeNull();
            const [x, y, w, h, centre, fontSize] = cta!.slice(1, 7).map(number) as [
              number,
              number,
              number,
              number,
              number,
              number,
            ];
            expect({ x, y, width: w, height: h }).toEqual(boxes.cta);
            for (const margin of margins(boxes.cta, width, height))
              expect(margin).toBeGreaterThanOrEqual(BANNER_EDGE_MARGIN);
            expect(cta![7]).toBe(bannerTexts.cta.replaceAll("'", '&apos;'));
            expect(centre).toBeCloseTo(x + w / 2, 1);
            expect(textWidth(bannerTexts.cta, fontSize)).toBeLessThanOrEqual(w - h / 2);
          } else {
            expect(svg).not.toContain(`>${bannerTexts.cta}<`);
          }

          // The code box too: it is what people type.
          for (const margin of margins(boxes.code, width, height))
            expect(margin).toBeGreaterThanOrEqual(BANNER_EDGE_MARGIN);
        });
      }
    }
  }

  it('draws the high-density banner with the same geometry at twice the pixels', () => {
    const options = { size: 'square', theme: 'purple', code: 'K7M2QX4P', brand: 'Skanova', texts, qr } as const;
    const double = renderBannerSvg({ ...options, scale: 2 });
    expect(double).toMatch(/^<svg [^>]*width="600" height="500" viewBox="0 0 300 250"/);
    expect(double.replace('width="600" height="500"', 'width="300" height="250"')).toBe(renderBannerSvg(options));
  });
});
