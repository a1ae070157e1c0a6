import { inflateSync } from 'node:zlib';

// Reading the marketing files the way a viewer would: a PNG's header, and the text a PDF draws.

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk (which must come first), or null when it is not a PNG. */
export function pngSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  if (bytes.toString('ascii', 12, 16) !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/**
 * Every string a PDF's content streams show (Tj/TJ operands), decoded: pdf-lib writes text as hex
 * strings in flate-compressed streams.
 */
export function pdfShownText(bytes: Uint8Array): string[] {
  const raw = Buffer.from(bytes).toString('latin1');
  const shown: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(match[1] ?? '', 'latin1')).toString('latin1');
    } catch {
      content = match[1] ?? '';
    }
    for (const text of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g))
      shown.push(Buffer.from(text[1] ?? '', 'hex').toString('latin1'));
    for (const text of content.matchAll(/\(((?:\\.|[^\\)])*)\)\s*Tj/g)) shown.push(text[1] ?? '');
  }
  return shown;
}
