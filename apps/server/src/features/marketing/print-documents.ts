import { PDFDocument, type PDFFont, type PDFPage, StandardFonts, rgb } from 'pdf-lib';
import type { Language } from '@skanova/shared/site/constants';
import { PRINT_DOCUMENTS, type PrintDocument } from '@skanova/shared/marketing/assets';
import { type QrMatrix, qrRuns } from '@skanova/shared/marketing/qr-matrix';
import { balanceMeasured, wrapMeasured } from '@skanova/shared/marketing/text-fit';
import { marketingText } from './marketing-texts.ts';
import { qrMatrix, referralLink } from './referral-qr.ts';

// The print documents of the marketing panel (docs/product/routes-and-screens.md#marketing-materials-panel): an A5 flyer and a business card,
// each with the referral link's QR code (drawn as vector rectangles, sharp at any print size), the
// code and the link. pdf-lib's standard fonts need no font file; they write WinAnsi, which covers
// French, and the few characters it lacks are replaced or left out.

export interface PrintRequest {
  document: PrintDocument;
  code: string;
  lang: Language;
  brand: string;
  publicUrl: string;
  now: Date;
}

/** The site's theme (docs/product/rules-and-constants.md#look-and-feel): primary purple, dark blue, lilac accent. */
const COLORS = {
  primary: rgb(0x50 / 255, 0x40 / 255, 0x99 / 255),
  primaryDarker: rgb(0x2e / 255, 0x23 / 255, 0x60 / 255),
  secondary: rgb(0x1b / 255, 0x2a / 255, 0x4a / 255),
  muted: rgb(0x4a / 255, 0x54 / 255, 0x70 / 255),
  accent: rgb(0xc8 / 255, 0xb6 / 255, 0xff / 255),
  accentSoft: rgb(0xf1 / 255, 0xec / 255, 0xff / 255),
  onPrimary: rgb(0xe4 / 255, 0xdc / 255, 0xff / 255),
  white: rgb(1, 1, 1),
};

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

interface Content {
  code: string;
  link: string;
  qr: QrMatrix;
  text: (key: string) => string;
  brand: string;
}

export async function renderPrintDocument(request: PrintRequest): Promise<Uint8Array> {
  const { widthPt, heightPt } = PRINT_DOCUMENTS[request.document];
  const pdf = await PDFDocument.create();
  const fonts = {
    regular: await pdf.embedFont(StandardFonts.Helvetica),
    bold: await pdf.embedFont(StandardFonts.HelveticaBold),
  };
  const link = referralLink(request.publicUrl, request.code);
  const content: Content = {
    code: request.code,
    link,
    qr: qrMatrix(link),
    text: (key) => marketingText(request.lang, key, request.brand),
    brand: request.brand,
  };
  pdf.setTitle(`${request.brand} – ${request.code}`);
  pdf.setAuthor(request.brand);
  pdf.setCreator(request.brand);
  pdf.setLanguage(request.lang);
  pdf.setCreationDate(request.now);
  pdf.setModificationDate(request.now);
  const page = pdf.addPage([widthPt, heightPt]);
  if (request.document === 'flyer') drawFlyer(page, fonts, content);
  else drawBusinessCard(page, fonts, content);
  return pdf.save();
}

/** A5 portrait: a purple header with the promise, three steps, a large QR code, the code and the link. */
function drawFlyer(page: PDFPage, fonts: Fonts, content: Content): void {
  const { width, height } = page.getSize();
  const margin = 36;
  const textWidth = width - 2 * margin;
  const bandBottom = height - 190;

  page.drawRectangle({ x: 0, y: bandBottom, width, height: height - bandBottom, color: COLORS.primary });
  page.drawCircle({ x: width - 30, y: height - 10, size: 120, color: COLORS.accent, opacity: 0.14 });
  write(page, content.brand, { x: margin, y: height - 48, font: fonts.bold, size: 14, color: COLORS.accent });
  let y = height - 92;
  const headline = fitLines(content.text('pdf.headline'), fonts.bold, {
    maxWidth: textWidth,
    maxSize: 30,
    minSize: 18,
    maxLines: 2,
  });
  for (const line of headline.lines) {
    write(page, line, { x: margin, y, font: fonts.bold, size: headline.size, color: COLORS.white });
    y -= headline.size * 1.15;
  }
  const tagline = fitLines(content.text('pdf.tagline'), fonts.regular, {
    maxWidth: textWidth,
    maxSize: 13,
    minSize: 10,
    maxLines: 2,
  });
  y -= 6;
  for (const line of tagline.lines) {
    write(page, line, { x: margin, y, font: fonts.regular, size: tagline.size, color: COLORS.onPrimary });
    y -= tagline.size * 1.3;
  }

  y = bandBottom - 30;
  write(page, content.text('pdf.stepsTitle'), { x: margin, y, font: fonts.bold, size: 14, color: COLORS.secondary });
  for (const [index, key] of ['pdf.steps.0', 'pdf.steps.1', 'pdf.steps.2'].entries()) {
    y -= 24;
    page.drawCircle({ x: margin + 8, y: y + 4, size: 9, color: COLORS.primary });
    const number = String(index + 1);
    write(page, number, {
      x: margin + 8 - fonts.bold.widthOfTextAtSize(number, 10) / 2,
      y: y,
      font: fonts.bold,
      size: 10,
      color: COLORS.white,
    });
    const step = fitLines(content.text(key), fonts.regular, {
      maxWidth: textWidth - 26,
      maxSize: 11,
      minSize: 8,
      maxLines: 1,
    });
    write(page, step.lines[0] ?? '', {
      x: margin + 26,
      y,
      font: fonts.regular,
      size: step.size,
      color: COLORS.secondary,
    });
  }

  const qrSize = 140;
  const qrTop = y - 22;
  drawQr(page, content.qr, { x: (width - qrSize) / 2, top: qrTop, size: qrSize, color: COLORS.primaryDarker });
  writeCentred(page, content.text('pdf.scan'), {
    y: qrTop - qrSize - 16,
    font: fonts.regular,
    size: 11,
    color: COLORS.muted,
    maxWidth: textWidth,
  });

  const boxWidth = 260;
  const boxBottom = 68;
  const boxHeight = 48;
  page.drawRectangle({
    x: (width - boxWidth) / 2,
    y: boxBottom,
    width: boxWidth,
    height: boxHeight,
    color: COLORS.accentSoft,
    borderColor: COLORS.primary,
    borderWidth: 1.2,
    borderDashArray: [5, 3],
  });
  writeCentred(page, content.text('pdf.codeLabel'), {
    y: boxBottom + 33,
    font: fonts.regular,
    size: 9,
    color: COLORS.primary,
    maxWidth: boxWidth - 16,
  });
  writeCentred(page, content.code, {
    y: boxBottom + 11,
    font: fonts.bold,
    size: 20,
    color: COLORS.primaryDarker,
    maxWidth: boxWidth - 16,
  });
  writeCentred(page, `${content.text('pdf.linkLabel')} ${content.link}`, {
    y: 44,
    font: fonts.regular,
    size: 9,
    color: COLORS.muted,
    maxWidth: textWidth,
  });

  page.drawRectangle({ x: 0, y: 0, width, height: 24, color: COLORS.primary });
  writeCentred(page, content.brand, { y: 8.5, font: fonts.bold, size: 9, color: COLORS.white, maxWidth: textWidth });
}

/** 85 × 55 mm: brand, promise, code and link on the left, the QR code on the right. */
function drawBusinessCard(page: PDFPage, fonts: Fonts, content: Content): void {
  const { width, height } = page.getSize();
  const margin = 12;
  const qrSize = 84;
  const columnWidth = width - 3 * margin - qrSize + 6;

  page.drawRectangle({ x: 0, y: 0, width, height: 8, color: COLORS.primary });
  drawQr(page, content.qr, { x: width - margin - qrSize, top: height - 32, size: qrSize, color: COLORS.primaryDarker });

  const brand = fitLines(content.brand, fonts.bold, { maxWidth: columnWidth, maxSize: 14, minSize: 8, maxLines: 1 });
  write(page, brand.lines[0] ?? '', {
    x: margin,
    y: height - 26,
    font: fonts.bold,
    size: brand.size,
    color: COLORS.primary,
  });
  const headline = fitLines(content.text('pdf.cardHeadline'), fonts.regular, {
    maxWidth: columnWidth,
    maxSize: 9,
    minSize: 6,
    maxLines: 2,
  });
  let y = height - 40;
  for (const line of headline.lines) {
    write(page, line, { x: margin, y, font: fonts.regular, size: headline.size, color: COLORS.secondary });
    y -= headline.size * 1.2;
  }
  write(
    page,
    fitLines(content.text('pdf.codeLabel'), fonts.regular, {
      maxWidth: columnWidth,
      maxSize: 6.5,
      minSize: 5,
      maxLines: 1,
    }).lines[0] ?? '',
    {
      x: margin,
      y: 62,
      font: fonts.regular,
      size: 6.5,
      color: COLORS.muted,
    },
  );
  const code = fitLines(content.code, fonts.bold, { maxWidth: columnWidth, maxSize: 15, minSize: 8, maxLines: 1 });
  write(page, code.lines[0] ?? '', {
    x: margin,
    y: 46,
    font: fonts.bold,
    size: code.size,
    color: COLORS.primaryDarker,
  });
  const link = fitLink(content.link, fonts.regular, columnWidth);
  link.lines.forEach((line, index) => {
    write(page, line, {
      x: margin,
      y: 28 - index * link.size * 1.2,
      font: fonts.regular,
      size: link.size,
      color: COLORS.muted,
    });
  });
}

interface Placement {
  x: number;
  top: number;
  size: number;
  color: ReturnType<typeof rgb>;
}

/** Dark modules as rectangles, one per horizontal run, on a white square with a quiet zone of 2 modules. */
function drawQr(page: PDFPage, matrix: QrMatrix, { x, top, size, color }: Placement): void {
  const quietZone = 2;
  const moduleSize = size / (matrix.length + 2 * quietZone);
  page.drawRectangle({ x, y: top - size, width: size, height: size, color: COLORS.white });
  for (const run of qrRuns(matrix)) {
    page.drawRectangle({
      x: x + (run.column + quietZone) * moduleSize,
      y: top - (run.row + quietZone + 1) * moduleSize,
      width: run.length * moduleSize,
      // A hair taller than a module: no light seam between rows in viewers that anti-alias.
      height: moduleSize + 0.05,
      color,
    });
  }
}

interface TextStyle {
  x: number;
  y: number;
  font: PDFFont;
  size: number;
  color: ReturnType<typeof rgb>;
}

function write(page: PDFPage, text: string, style: TextStyle): void {
  page.drawText(printable(text, style.font), style);
}

function writeCentred(page: PDFPage, text: string, style: Omit<TextStyle, 'x'> & { maxWidth: number }): void {
  const fitted = fitLines(text, style.font, {
    maxWidth: style.maxWidth,
    maxSize: style.size,
    minSize: style.size * 0.6,
    maxLines: 1,
  });
  const line = fitted.lines[0] ?? '';
  const x = (page.getWidth() - style.font.widthOfTextAtSize(line, fitted.size)) / 2;
  page.drawText(line, { x, y: style.y, font: style.font, size: fitted.size, color: style.color });
}

/**
 * Text the standard fonts can write: WinAnsi lacks the narrow no-break space French puts before
 * punctuation (a no-break space stands in) and most symbols (left out; a letter with an accent the
 * encoding lacks keeps its letter).
 */
export function printable(text: string, font: PDFFont): string {
  const supported = new Set(font.getCharacterSet());
  let result = '';
  for (const character of text.replace(/[\u202f\u2009]/g, '\u00a0')) {
    const codePoint = character.codePointAt(0) ?? 0;
    if (supported.has(codePoint)) {
      result += character;
      continue;
    }
    const base = character.normalize('NFD').charAt(0);
    if (base !== character && supported.has(base.codePointAt(0) ?? 0)) result += base;
  }
  return result;
}

interface FitOptions {
  maxWidth: number;
  maxSize: number;
  minSize: number;
  maxLines: number;
}

/** The largest size whose word-wrapped lines fit; at the smallest, extra words are cut. */
function fitLines(text: string, font: PDFFont, options: FitOptions): { size: number; lines: string[] } {
  const clean = printable(text, font);
  for (let size = options.maxSize; size >= options.minSize; size -= 0.5) {
    const lines = wrap(clean, font, size, options.maxWidth);
    if (
      lines.length <= options.maxLines &&
      lines.every((line) => font.widthOfTextAtSize(line, size) <= options.maxWidth)
    ) {
      return { size, lines: balance(clean, lines.length, font, size, options.maxWidth) };
    }
  }
  const lines = wrap(clean, font, options.minSize, options.maxWidth).slice(0, options.maxLines);
  return { size: options.minSize, lines: lines.map((line) => cut(line, font, options.minSize, options.maxWidth)) };
}

/** Words split at plain spaces only: the no-break spaces `printable` keeps hold their words together. */
const wordsOf = (text: string) => text.split(/ +/).filter(Boolean);

function wrap(text: string, font: PDFFont, size: number, maxWidth: number): string[] {
  return wrapMeasured(wordsOf(text), maxWidth, (line) => font.widthOfTextAtSize(line, size));
}

function balance(text: string, lineCount: number, font: PDFFont, size: number, maxWidth: number): string[] {
  return balanceMeasured(wordsOf(text), lineCount, maxWidth, (line) => font.widthOfTextAtSize(line, size));
}

function cut(line: string, font: PDFFont, size: number, maxWidth: number): string {
  let result = line;
  while (result.length > 1 && font.widthOfTextAtSize(result, size) > maxWidth) result = result.slice(0, -1);
  return result;
}

/** The link has no spaces to wrap at: shrink it to one line, or split it in two where it must. */
function fitLink(link: string, font: PDFFont, maxWidth: number): { size: number; lines: string[] } {
  const maxSize = 6.5;
  const minSize = 5;
  for (let size = maxSize; size >= minSize; size -= 0.25) {
    if (font.widthOfTextAtSize(link, size) <= maxWidth) return { size, lines: [link] };
  }
  const lines: string[] = [];
  let rest = link;
  while (rest && lines.length < 2) {
    const line = cut(rest, font, minSize, maxWidth);
    lines.push(line);
    rest = rest.slice(line.length);
  }
  return { size: minSize, lines };
}
