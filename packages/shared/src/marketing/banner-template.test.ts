import { describe, expect, it } from 'vitest';
import { BANNER_PREVIEW_SCALE, BANNER_SIZES, BANNER_THEMES, type BannerSize } from './constants.ts';
import en from '../i18n/en/marketing.json';
import { BANNER_THEME_COLORS, type BannerTexts, renderBannerSvg } from './banner-template.ts';
import { qrPathData } from './qr-matrix.ts';

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
