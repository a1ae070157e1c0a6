import { BANNER_SIZES, type BannerSize, type BannerTheme } from './constants.ts';
import { type QrMatrix, escapeXml, qrPathData } from './qr-matrix.ts';
import { LINE_HEIGHT, fitText, textWidth } from './text-fit.ts';

// The affiliate banners (docs/product/routes-and-screens.md#marketing-materials-panel, docs/product/rules-and-constants.md#look-and-feel sizes; docs/product/routes-and-screens.md#marketing-materials-panel): one
// SVG template, drawn by the browser for the preview and the PNG download, and by the server
// (resvg) for the image URL of the HTML embed snippet. It is a pure function of its inputs, so the
// three always show the same banner.

/** The banner's words, in the chosen language (the `marketing` translations, `banner.*`). */
export interface BannerTexts {
  headline: string;
  tagline: string;
  cta: string;
  codeLabel: string;
  scan: string;
}

export interface BannerOptions {
  size: BannerSize;
  theme: BannerTheme;
  code: string;
  brand: string;
  texts: BannerTexts;
  /** The referral link's QR code, drawn where the layout has room for it. */
  qr: QrMatrix | null;
  /** Drawn size ÷ real size (the preview is half size); the layout is always that of the real size. */
  scale?: number;
  /** Accessible name of the image. */
  title?: string;
}

/**
 * The server renders with DejaVu Sans (bundled with it); browsers have DejaVu Sans on Linux, and
 * Verdana (about as wide) or Arial (narrower) elsewhere, so text measured for DejaVu always fits.
 */
export const BANNER_FONT_FAMILY = 'DejaVu Sans, Verdana, Arial, Helvetica, sans-serif';

interface ThemeColors {
  backgroundFrom: string;
  backgroundTo: string;
  /** Outline, for a light banner on a light page. */
  border: string | null;
  decoration: string;
  decorationOpacity: number;
  brand: string;
  headline: string;
  tagline: string;
  codeBackground: string;
  codeBorder: string | null;
  codeLabel: string;
  code: string;
  ctaBackground: string;
  ctaText: string;
  /** QR codes are dark on a white tile on every theme: scanners need that. */
  qrForeground: string;
  scan: string;
}

/** The primary purple family of the site's theme (docs/product/rules-and-constants.md#look-and-feel), its dark blue and its lilac accent. */
export const BANNER_THEME_COLORS: Record<BannerTheme, ThemeColors> = {
  purple: {
    backgroundFrom: '#504099',
    backgroundTo: '#2e2360',
    border: null,
    decoration: '#c8b6ff',
    decorationOpacity: 0.14,
    brand: '#c8b6ff',
    headline: '#ffffff',
    tagline: '#e4dcff',
    codeBackground: '#ffffff',
    codeBorder: null,
    codeLabel: '#504099',
    code: '#2e2360',
    ctaBackground: '#c8b6ff',
    ctaText: '#2e2360',
    qrForeground: '#2e2360',
    scan: '#e4dcff',
  },
  dark: {
    backgroundFrom: '#1b2a4a',
    backgroundTo: '#0f1a30',
    border: null,
    decoration: '#504099',
    decorationOpacity: 0.35,
    brand: '#c8b6ff',
    headline: '#ffffff',
    tagline: '#c9cfe0',
    codeBackground: '#2c3e66',
    codeBorder: '#c8b6ff',
    codeLabel: '#c8b6ff',
    code: '#ffffff',
    ctaBackground: '#c8b6ff',
    ctaText: '#1b2a4a',
    qrForeground: '#1b2a4a',
    scan: '#c9cfe0',
  },
  light: {
    backgroundFrom: '#ffffff',
    backgroundTo: '#f1ecff',
    border: '#d8d3ea',
    decoration: '#c8b6ff',
    decorationOpacity: 0.35,
    brand: '#504099',
    headline: '#1b2a4a',
    tagline: '#4a5470',
    codeBackground: '#f8f5ff',
    codeBorder: '#504099',
    codeLabel: '#504099',
    code: '#2e2360',
    ctaBackground: '#504099',
    ctaText: '#ffffff',
    qrForeground: '#504099',
    scan: '#4a5470',
  },
};

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The least room, in px of the real size, between a banner's edge and its QR code, button or code
 * box: a banner is placed at the edge of a page or in an ad slot, and anything closer looks cut off
 * (and a QR code's tile would run into the page around it).
 */
export const BANNER_EDGE_MARGIN = 12;

interface TextStack {
  /** Left edge, or centre when `anchor` is middle. */
  x: number;
  top: number;
  bottom: number;
  width: number;
  headline: { maxSize: number; minSize: number; maxLines: number };
  /** Omitted where there is no room for it. */
  tagline: { size: number; maxLines: number } | null;
  /** In the middle of the area rather than at its top. */
  centred?: boolean;
}

interface BannerLayout {
  anchor: 'start' | 'middle';
  brand: { x: number; y: number; size: number; maxWidth: number };
  text: TextStack;
  code: Box & { inline: boolean };
  cta: Box | null;
  qr: Box | null;
  /** "Scan me" above the QR code, where there is room. */
  scan: { x: number; y: number; size: number } | null;
}

/** One layout per size (docs/product/rules-and-constants.md#look-and-feel): a wide strip, a medium rectangle, a skyscraper and a mobile strip. */
const LAYOUTS: Record<BannerSize, BannerLayout> = {
  horizontal: {
    anchor: 'start',
    brand: { x: 18, y: 24, size: 12, maxWidth: 300 },
    text: {
      x: 18,
      top: 32,
      bottom: 82,
      width: 300,
      headline: { maxSize: 22, minSize: 14, maxLines: 2 },
      tagline: { size: 12, maxLines: 1 },
    },
    code: { x: 334, y: 15, width: 136, height: 60, inline: false },
    cta: { x: 482, y: 26, width: 152, height: 38 },
    qr: { x: 650, y: 12, width: 66, height: 66 },
    scan: null,
  },
  square: {
    anchor: 'start',
    brand: { x: 20, y: 34, size: 14, maxWidth: 260 },
    text: {
      x: 20,
      top: 48,
      bottom: 126,
      width: 260,
      headline: { maxSize: 24, minSize: 16, maxLines: 2 },
      tagline: { size: 12, maxLines: 2 },
    },
    code: { x: 20, y: 138, width: 150, height: 48, inline: false },
    cta: { x: 20, y: 194, width: 150, height: 36 },
    qr: { x: 184, y: 134, width: 96, height: 96 },
    scan: null,
  },
  vertical: {
    anchor: 'middle',
    brand: { x: 80, y: 40, size: 15, maxWidth: 132 },
    text: {
      x: 80,
      top: 62,
      bottom: 296,
      width: 132,
      headline: { maxSize: 24, minSize: 15, maxLines: 5 },
      tagline: { size: 14, maxLines: 4 },
      centred: true,
    },
    scan: { x: 80, y: 318, size: 12 },
    qr: { x: 20, y: 328, width: 120, height: 120 },
    code: { x: 14, y: 462, width: 132, height: 60, inline: false },
    cta: { x: 14, y: 536, width: 132, height: 44 },
  },
  mobile: {
    anchor: 'start',
    brand: { x: 14, y: 22, size: 11, maxWidth: 200 },
    text: {
      x: 14,
      top: 28,
      bottom: 54,
      width: 200,
      headline: { maxSize: 17, minSize: 11, maxLines: 2 },
      tagline: null,
    },
    code: { x: 14, y: 60, width: 200, height: 28, inline: true },
    cta: null,
    qr: { x: 232, y: 12, width: 76, height: 76 },
    scan: null,
  },
};

/** Where a banner of `size` draws its code box, button and QR code (px of the real size). */
export function bannerBoxes(size: BannerSize): { code: Box; cta: Box | null; qr: Box | null } {
  const { code, cta, qr } = LAYOUTS[size];
  const box = ({ x, y, width, height }: Box): Box => ({ x, y, width, height });
  return { code: box(code), cta: cta ? box(cta) : null, qr: qr ? box(qr) : null };
}

/** The space between the letters of the code, in px per px of font size: codes read letter by letter. */
const CODE_LETTER_SPACING = 0.12;

export function renderBannerSvg(options: BannerOptions): string {
  const { width, height } = BANNER_SIZES[options.size];
  const layout = LAYOUTS[options.size];
  const colors = BANNER_THEME_COLORS[options.theme];
  const scale = options.scale ?? 1;
  const id = `skb-${options.size}-${options.theme}`;
  const label = options.title ? ` role="img" aria-label="${escapeXml(options.title)}"` : '';
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${round(width * scale)}" height="${round(height * scale)}" viewBox="0 0 ${width} ${height}"${label} font-family="${BANNER_FONT_FAMILY}">`,
    options.title ? `<title>${escapeXml(options.title)}</title>` : '',
    background(id, width, height, colors),
    brandName(options.brand, layout, colors),
    textStack(options.texts, layout, colors),
    layout.scan && options.qr
      ? textElement(options.texts.scan, layout.scan.x, layout.scan.y, layout.scan.size, colors.scan, 400, 'middle')
      : '',
    layout.qr && options.qr ? qrTile(options.qr, layout.qr, colors) : '',
    codeBox(options.code, options.texts.codeLabel, layout.code, colors),
    layout.cta ? ctaButton(options.texts.cta, layout.cta, colors) : '',
    '</svg>',
  ].join('');
}

function background(id: string, width: number, height: number, colors: ThemeColors): string {
  const big = Math.max(width, height);
  const small = Math.min(width, height);
  const border = colors.border
    ? `<rect x="0.5" y="0.5" width="${width - 1}" height="${height - 1}" fill="none" stroke="${colors.border}"/>`
    : '';
  return [
    `<defs><linearGradient id="${id}-bg" x1="0" y1="0" x2="1" y2="1">`,
    `<stop offset="0" stop-color="${colors.backgroundFrom}"/><stop offset="1" stop-color="${colors.backgroundTo}"/>`,
    '</linearGradient></defs>',
    `<rect width="${width}" height="${height}" fill="url(#${id}-bg)"/>`,
    // Two soft discs give the flat background some depth, behind everything else.
    `<g fill="${colors.decoration}" opacity="${colors.decorationOpacity}">`,
    `<circle cx="${round(width * 0.92)}" cy="${round(-height * 0.15)}" r="${round(big * 0.32)}"/>`,
    `<circle cx="${round(width * 0.02)}" cy="${round(height * 1.05)}" r="${round(small * 0.55)}"/>`,
    '</g>',
    border,
  ].join('');
}

/** The brand is configuration and may be long: it shrinks, then is cut, to stay on its one line. */
function brandName(brand: string, layout: BannerLayout, colors: ThemeColors): string {
  const { x, y, size, maxWidth } = layout.brand;
  const fitted = fitText(brand, { maxWidth, maxSize: size, minSize: size * 0.7, maxLines: 1 });
  return textElement(fitted.lines[0] ?? '', x, y, fitted.fontSize, colors.brand, 700, layout.anchor);
}

function textElement(
  text: string,
  x: number,
  y: number,
  size: number,
  fill: string,
  weight: 400 | 700,
  anchor: 'start' | 'middle',
  letterSpacingEm = 0,
): string {
  const spacing = letterSpacingEm ? ` letter-spacing="${round(size * letterSpacingEm)}"` : '';
  const anchorAttribute = anchor === 'middle' ? ' text-anchor="middle"' : '';
  return `<text x="${round(x)}" y="${round(y)}" font-size="${round(size)}" font-weight="${weight}" fill="${fill}"${anchorAttribute}${spacing}>${escapeXml(text)}</text>`;
}

/**
 * Headline then tagline, each as large as fits; the tagline is left out when there is no room for
 * all of it. The block sits at the top of its area, or in its middle where the layout says so.
 */
function textStack(texts: BannerTexts, layout: BannerLayout, colors: ThemeColors): string {
  const stack = layout.text;
  const available = stack.bottom - stack.top;
  const headline = fitText(texts.headline, { maxWidth: stack.width, maxHeight: available, ...stack.headline });
  const lines: { text: string; baseline: number; size: number; fill: string; weight: 400 | 700 }[] = [];
  let baseline = headline.fontSize;
  headline.lines.forEach((text, index) => {
    if (index > 0) baseline += headline.fontSize * LINE_HEIGHT;
    lines.push({ text, baseline, size: headline.fontSize, fill: colors.headline, weight: 700 });
  });
  const gap = stack.tagline ? stack.tagline.size * 0.6 : 0;
  const room = available - (baseline + gap);
  if (stack.tagline && room >= stack.tagline.size) {
    const { size, maxLines } = stack.tagline;
    const tagline = fitText(texts.tagline, {
      maxWidth: stack.width,
      maxSize: size,
      minSize: size,
      maxLines,
      maxHeight: room,
    });
    if (!tagline.truncated) {
      baseline += gap + tagline.fontSize;
      tagline.lines.forEach((text, index) => {
        if (index > 0) baseline += tagline.fontSize * LINE_HEIGHT;
        lines.push({ text, baseline, size: tagline.fontSize, fill: colors.tagline, weight: 400 });
      });
    }
  }
  // The last line's descenders take about a quarter of its size below the baseline.
  const used = baseline + (lines.at(-1)?.size ?? 0) * 0.25;
  const top = stack.top + (stack.centred ? Math.max(0, (available - used) / 2) : 0);
  return lines
    .map((line) =>
      textElement(line.text, stack.x, top + line.baseline, line.size, line.fill, line.weight, layout.anchor),
    )
    .join('');
}

/** The QR code on a white rounded tile; the tile's padding is the quiet zone. */
function qrTile(matrix: QrMatrix, box: Box, colors: ThemeColors): string {
  const padding = Math.max(3, box.width * 0.06);
  const inner = box.width - 2 * padding;
  const moduleSize = inner / Math.max(1, matrix.length);
  return [
    // On a light banner the white tile gets the banner's outline colour, so its edge shows.
    `<rect x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" rx="${round(box.width * 0.08)}" fill="#ffffff"${colors.border ? ` stroke="${colors.border}"` : ''}/>`,
    `<path transform="translate(${round(box.x + padding)} ${round(box.y + padding)}) scale(${round(moduleSize, 4)})" d="${qrPathData(matrix)}" fill="${colors.qrForeground}" shape-rendering="crispEdges"/>`,
  ].join('');
}

/** The referral code, large and letter-spaced, under (or beside) its label. */
function codeBox(code: string, label: string, box: BannerLayout['code'], colors: ThemeColors): string {
  const border = colors.codeBorder ? ` stroke="${colors.codeBorder}" stroke-width="1.5" stroke-dasharray="5 3"` : '';
  const rect = `<rect x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" rx="${round(Math.min(10, box.height / 4))}" fill="${colors.codeBackground}"${border}/>`;
  const inset = 10;
  if (box.inline) {
    const labelSize = Math.min(11, box.height * 0.36);
    const labelWidth = textWidth(label, labelSize);
    const codeX = box.x + inset + labelWidth + 8;
    const codeSize = codeFontSize(code, box.x + box.width - inset - codeX, box.height * 0.56);
    const baseline = box.y + box.height / 2 + codeSize * 0.36;
    return [
      rect,
      textElement(label, box.x + inset, baseline, labelSize, colors.codeLabel, 400, 'start'),
      textElement(code, codeX, baseline, codeSize, colors.code, 700, 'start', CODE_LETTER_SPACING),
    ].join('');
  }
  const labelSize = Math.min(11, box.height * 0.2);
  const codeSize = codeFontSize(code, box.width - 2 * inset, box.height * 0.42);
  const centre = box.x + box.width / 2;
  return [
    rect,
    textElement(label, centre, box.y + box.height * 0.34, labelSize, colors.codeLabel, 400, 'middle', 0.08),
    textElement(
      code,
      centre,
      box.y + box.height * 0.34 + labelSize * 0.4 + codeSize,
      codeSize,
      colors.code,
      700,
      'middle',
      CODE_LETTER_SPACING,
    ),
  ].join('');
}

/** The largest size (up to `maxSize`) at which the letter-spaced code fits `width`. */
function codeFontSize(code: string, width: number, maxSize: number): number {
  const perPx = textWidth(code, 1) + CODE_LETTER_SPACING * Math.max(0, [...code].length - 1);
  return Math.min(maxSize, perPx > 0 ? width / perPx : maxSize);
}

function ctaButton(text: string, box: Box, colors: ThemeColors): string {
  const fitted = fitText(text, {
    maxWidth: box.width - box.height * 0.6,
    maxSize: box.height * 0.42,
    minSize: 8,
    maxLines: 1,
  });
  const baseline = box.y + box.height / 2 + fitted.fontSize * 0.36;
  return [
    `<rect x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" rx="${box.height / 2}" fill="${colors.ctaBackground}"/>`,
    textElement(fitted.lines[0] ?? '', box.x + box.width / 2, baseline, fitted.fontSize, colors.ctaText, 700, 'middle'),
  ].join('');
}

function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
