import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderAsync } from '@resvg/resvg-js';
import type { BannerSize, BannerTheme } from '@skanova/shared/marketing/constants';
import type { Language } from '@skanova/shared/site/constants';
import { renderBannerSvg } from '@skanova/shared/marketing/banner-template';
import { bannerTexts } from './marketing-texts.ts';
import { qrMatrix, referralLink } from './referral-qr.ts';

// Banners as PNG (docs/product/routes-and-screens.md#marketing-materials-panel): the shared SVG template rasterised by resvg, with the fonts
// shipped in apps/server/assets/fonts — never the machine's, so every server draws the same text.

const FONTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../assets/fonts');
export const BANNER_FONT_FILES = [path.join(FONTS_DIR, 'DejaVuSans.ttf'), path.join(FONTS_DIR, 'DejaVuSans-Bold.ttf')];
/** Only the bundled fonts: system fonts differ from machine to machine (and a container may have none). */
export const RESVG_OPTIONS = {
  font: { loadSystemFonts: false, fontFiles: BANNER_FONT_FILES, defaultFontFamily: 'DejaVu Sans' },
  fitTo: { mode: 'original' as const },
};

/** Rendered banners kept in memory (a few KB each): embeds ask for the same few images again and again. */
const CACHE_ENTRIES = 256;

export interface BannerRequest {
  code: string;
  size: BannerSize;
  theme: BannerTheme;
  lang: Language;
}

export interface BannerSettings {
  brand: string;
  publicUrl: string;
}

/** SVG → PNG at the SVG's own size, with the bundled fonts. */
export async function rasterise(svg: string): Promise<Buffer> {
  const image = await renderAsync(svg, RESVG_OPTIONS);
  return image.asPng();
}

export function bannerSvg(request: BannerRequest, settings: BannerSettings): string {
  return renderBannerSvg({
    size: request.size,
    theme: request.theme,
    code: request.code,
    brand: settings.brand,
    texts: bannerTexts(request.lang, settings.brand),
    qr: qrMatrix(referralLink(settings.publicUrl, request.code)),
  });
}

/** A renderer with its own cache: a banner depends only on the request and the (fixed) settings. */
export function createBannerRenderer(settings: BannerSettings): (request: BannerRequest) => Promise<Buffer> {
  const cache = new Map<string, Promise<Buffer>>();
  return (request) => {
    const key = `${request.code}/${request.size}/${request.theme}/${request.lang}`;
    const cached = cache.get(key);
    if (cached) {
      // Most recently used last, so the oldest entry is the first to go.
      cache.delete(key);
      cache.set(key, cached);
      return cached;
    }
    const rendering = rasterise(bannerSvg(request, settings));
    cache.set(key, rendering);
    rendering.catch(() => cache.delete(key));
    if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
    return rendering;
  };
}
