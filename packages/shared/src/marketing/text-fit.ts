// Fitting text into the banners without a layout engine: the same pure code runs in the browser
// and on the server, so widths are estimated from the advance widths of DejaVu Sans Bold, the font
// the server renders with. It is one of the widest sans-serif faces, so text measured with it also
// fits in the narrower faces a browser may pick (Verdana is about as wide, Arial narrower).

/** Advance widths of DejaVu Sans Bold in hundredths of an em, for the characters 32 (space) to 126 (~). */
const ASCII_WIDTHS = [
  35, 46, 52, 84, 70, 100, 87, 31, 46, 46, 52, 84, 38, 42, 38, 37, 70, 70, 70, 70, 70, 70, 70, 70, 70, 70, 40, 40, 84,
  84, 84, 58, 100, 77, 76, 73, 83, 68, 68, 82, 84, 37, 37, 77, 64, 100, 84, 85, 73, 85, 77, 72, 68, 81, 77, 110, 77, 72,
  73, 46, 37, 46, 84, 50, 50, 67, 72, 59, 72, 68, 44, 72, 71, 34, 34, 67, 34, 104, 71, 69, 72, 72, 49, 60, 48, 71, 65,
  92, 65, 65, 58, 71, 37, 71, 84,
];
/** Characters outside the table (symbols, other scripts) are counted as wide. */
const OTHER_WIDTH = 100;
const FIRST_CODE = 32;

/** Width of one character in em: accented letters measure as their base letter (é as e). */
function characterWidth(character: string): number {
  const base = character.normalize('NFD').charCodeAt(0);
  const width = ASCII_WIDTHS[base - FIRST_CODE];
  // Non-breaking and narrow spaces measure as a space.
  if (/\s/.test(character)) return (ASCII_WIDTHS[0] ?? OTHER_WIDTH) / 100;
  return (width ?? OTHER_WIDTH) / 100;
}

/** Estimated width in px of `text` at `fontSize` px, with `letterSpacing` px between characters. */
export function textWidth(text: string, fontSize: number, letterSpacing = 0): number {
  const characters = [...text];
  const ems = characters.reduce((sum, character) => sum + characterWidth(character), 0);
  return ems * fontSize + letterSpacing * Math.max(0, characters.length - 1);
}

/** A line's width in the caller's units (this module's font metrics, or a PDF font's). */
export type MeasureLine = (line: string) => number;

/** Greedy wrap of `words` joined by spaces; a word wider than the line stays whole on its own line. */
export function wrapMeasured(words: readonly string[], maxWidth: number, measure: MeasureLine): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && measure(candidate) > maxWidth) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * `lineCount` lines as even as possible ("Your skin, / analysed by AI" rather than "Your skin,
 * analysed by / AI"): the narrowest width that still wraps `words` into that many lines.
 */
export function balanceMeasured(
  words: readonly string[],
  lineCount: number,
  maxWidth: number,
  measure: MeasureLine,
): string[] {
  if (lineCount < 2) return wrapMeasured(words, maxWidth, measure);
  let low = maxWidth / lineCount;
  let high = maxWidth;
  for (let step = 0; step < 12; step += 1) {
    const middle = (low + high) / 2;
    if (wrapMeasured(words, middle, measure).length <= lineCount) high = middle;
    else low = middle;
  }
  return wrapMeasured(words, high, measure);
}

const wordsOf = (text: string) => text.trim().split(/\s+/).filter(Boolean);

/** Greedy word wrap; a word wider than the line stays whole on its own line (fitText then shrinks or cuts it). */
export function wrapWords(text: string, maxWidth: number, fontSize: number): string[] {
  return wrapMeasured(wordsOf(text), maxWidth, (line) => textWidth(line, fontSize));
}

export interface FitOptions {
  maxWidth: number;
  maxSize: number;
  minSize: number;
  maxLines: number;
  /** Height available for all the lines, if limited (lines are `lineHeight` × font size apart). */
  maxHeight?: number;
  lineHeight?: number;
}

export interface FittedText {
  fontSize: number;
  lines: string[];
  /** Part of the text had to be cut (the last line ends with an ellipsis). */
  truncated: boolean;
}

const SIZE_STEP = 0.5;
/** Distance between baselines, in font sizes. */
export const LINE_HEIGHT = 1.2;
const ELLIPSIS = '…';

/**
 * The largest font size (from maxSize down to minSize) at which `text` wraps into at most maxLines
 * lines no wider than maxWidth. If even minSize is too big, the text is cut with an ellipsis.
 */
export function fitText(text: string, options: FitOptions): FittedText {
  for (let size = options.maxSize; size >= options.minSize; size -= SIZE_STEP) {
    const lines = wrapWords(text, options.maxWidth, size);
    if (
      lines.length <= linesAllowed(options, size) &&
      lines.every((line) => textWidth(line, size) <= options.maxWidth)
    ) {
      return { fontSize: size, lines: balance(text, lines.length, options.maxWidth, size), truncated: false };
    }
  }
  const size = options.minSize;
  const wrapped = wrapWords(text, options.maxWidth, size);
  const lines = wrapped.slice(0, Math.max(1, linesAllowed(options, size)));
  const cut = lines.length < wrapped.length;
  return {
    fontSize: size,
    truncated: cut || lines.some((line) => textWidth(line, size) > options.maxWidth),
    lines: lines.map((line, index) => {
      const last = index === lines.length - 1;
      return truncate(line, options.maxWidth, size, cut && last);
    }),
  };
}

function balance(text: string, lineCount: number, maxWidth: number, fontSize: number): string[] {
  return balanceMeasured(wordsOf(text), lineCount, maxWidth, (line) => textWidth(line, fontSize));
}

function linesAllowed(options: FitOptions, fontSize: number): number {
  if (options.maxHeight === undefined) return options.maxLines;
  // The first line needs one font size of height, each further line one line height more.
  const extra = Math.floor((options.maxHeight - fontSize) / (fontSize * (options.lineHeight ?? LINE_HEIGHT)));
  return Math.min(options.maxLines, 1 + Math.max(-1, extra));
}

/** Cuts a line to maxWidth, ending with an ellipsis when anything was removed (or when `force`). */
function truncate(line: string, maxWidth: number, fontSize: number, force: boolean): string {
  if (!force && textWidth(line, fontSize) <= maxWidth) return line;
  let characters = [...line];
  while (characters.length > 0 && textWidth(`${characters.join('').trimEnd()}${ELLIPSIS}`, fontSize) > maxWidth) {
    characters = characters.slice(0, -1);
  }
  return `${characters.join('').trimEnd()}${ELLIPSIS}`;
}
