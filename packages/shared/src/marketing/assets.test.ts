import { describe, expect, it } from 'vitest';
import { BANNER_SIZES, BANNER_THEMES } from './constants.ts';
import { PRINT_DOCUMENTS, bannerEmbedHtml, bannerImagePath, parseBannerFileName, printDocumentPath } from './assets.ts';

describe('marketing file addresses', () => {
  it('names every banner size and theme, and nothing else', () => {
    for (const size of Object.keys(BANNER_SIZES)) {
      for (const theme of BANNER_THEMES) expect(parseBannerFileName(`${size}-${theme}.png`)).toEqual({ size, theme });
    }
    for (const file of [
      'square.png',
      'square-pink.png',
      'toString-purple.png',
      'square-purple.svg',
      '../square-purple.png',
    ]) {
      expect(parseBannerFileName(file), file).toBeNull();
    }
  });

  it('builds the image and print paths', () => {
    expect(bannerImagePath('K7M2QX4P', 'mobile', 'dark', 'en')).toBe(
      '/api/marketing/banners/K7M2QX4P/mobile-dark.png?lang=en',
    );
    expect(printDocumentPath('K7M2QX4P', 'business-card', 'fr')).toBe(
      '/api/marketing/print/K7M2QX4P/business-card.pdf?lang=fr',
    );
  });

  it('has the A5 and 85 × 55 mm page sizes in points', () => {
    expect(PRINT_DOCUMENTS.flyer).toMatchObject({ widthPt: 419.53, heightPt: 595.28 });
    expect(PRINT_DOCUMENTS['business-card']).toMatchObject({ widthPt: 240.94, heightPt: 155.91 });
  });

  it('writes an embed snippet with escaped values', () => {
    const html = bannerEmbedHtml({
      imageUrl: 'https://x.example/b.png?lang=fr&v=1',
      link: 'https://x.example/download?ref=AB',
      width: 300,
      height: 250,
      alt: `Say "hi" <now> & don't`,
    });
    expect(html).toBe(
      `<a href="https://x.example/download?ref=AB" target="_blank" rel="noopener"><img src="https://x.example/b.png?lang=fr&amp;v=1" width="300" height="250" alt="Say &quot;hi&quot; &lt;now&gt; &amp; don't" style="border:0;max-width:100%;height:auto"></a>`,
    );
  });
});
