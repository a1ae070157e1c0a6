import { BANNER_SIZES, BANNER_THEMES, type BannerSize, type BannerTheme } from './constants.ts';
import type { Language } from '../site/constants.ts';

// Addresses and names of the marketing files (docs/product/routes-and-screens.md#marketing-materials-panel): the panel links
// to them, the server answers them, the tests check them. All are per referral code.

export const MARKETING_API_PREFIX = '/api/marketing';

const POINTS_PER_MM = 72 / 25.4;

/** The print documents (docs/product/routes-and-screens.md#marketing-materials-panel), their file names and page sizes in PDF points. */
export const PRINT_DOCUMENTS = {
  /** A5 portrait: 148 × 210 mm. */
  flyer: { file: 'flyer.pdf', widthPt: 419.53, heightPt: 595.28 },
  /** The common European business card: 85 × 55 mm. */
  'business-card': {
    file: 'business-card.pdf',
    widthPt: round(85 * POINTS_PER_MM),
    heightPt: round(55 * POINTS_PER_MM),
  },
} as const;
export type PrintDocument = keyof typeof PRINT_DOCUMENTS;
export const PRINT_DOCUMENT_KINDS = Object.keys(PRINT_DOCUMENTS) as PrintDocument[];

/** Public image of a banner (the HTML embed snippet's `src`), relative to the public URL. */
export function bannerImagePath(code: string, size: BannerSize, theme: BannerTheme, lang: Language): string {
  return `${MARKETING_API_PREFIX}/banners/${encodeURIComponent(code)}/${size}-${theme}.png?lang=${lang}`;
}

/** A print PDF of one of the signed-in affiliate's codes. */
export function printDocumentPath(code: string, document: PrintDocument, lang: Language): string {
  return `${MARKETING_API_PREFIX}/print/${encodeURIComponent(code)}/${PRINT_DOCUMENTS[document].file}?lang=${lang}`;
}

/** `horizontal-purple.png` → its size and theme, or null when either is not one of ours. */
export function parseBannerFileName(file: string): { size: BannerSize; theme: BannerTheme } | null {
  const match = /^([a-z]+)-([a-z]+)\.png$/.exec(file);
  if (!match) return null;
  const [, size, theme] = match;
  if (!size || !theme || !Object.hasOwn(BANNER_SIZES, size) || !(BANNER_THEMES as readonly string[]).includes(theme))
    return null;
  return { size: size as BannerSize, theme: theme as BannerTheme };
}

/** The PNG of a banner; the high-density one (twice the pixels, for sharp display on retina screens) ends in @2x. */
export function bannerFileName(code: string, size: BannerSize, theme: BannerTheme, density: 1 | 2 = 1): string {
  return `banner-${code}-${size}-${theme}${density === 2 ? '@2x' : ''}.png`;
}

export function qrFileName(code: string, extension: 'svg' | 'png'): string {
  return `qr-code-${code}.${extension}`;
}

export interface BannerEmbed {
  /** Absolute URL of the banner image. */
  imageUrl: string;
  /** The referral link the banner opens. */
  link: string;
  width: number;
  height: number;
  alt: string;
}

/** The HTML an affiliate pastes into a web page: the banner image, linking to the referral link. */
export function bannerEmbedHtml({ imageUrl, link, width, height, alt }: BannerEmbed): string {
  return `<a href="${attribute(link)}" target="_blank" rel="noopener"><img src="${attribute(imageUrl)}" width="${width}" height="${height}" alt="${attribute(alt)}" style="border:0;max-width:100%;height:auto"></a>`;
}

/** A double-quoted HTML attribute value; apostrophes stay readable (the snippet is shown to people). */
function attribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
