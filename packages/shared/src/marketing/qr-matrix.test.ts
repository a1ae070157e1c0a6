import { describe, expect, it } from 'vitest';
import {
  QR_QUIET_ZONE_MODULES,
  escapeXml,
  qrExtent,
  qrMatrixFromModules,
  qrPathData,
  qrSvgDocument,
} from './qr-matrix.ts';

// A tiny hand-made matrix stands in for the qrcode package's output (shared code does not import it).
const MODULES = { size: 3, data: [1, 1, 0, 0, 1, 0, 1, 1, 1] };

describe('QR matrix', () => {
  it('reads the BitMatrix shape row by row', () => {
    expect(qrMatrixFromModules(MODULES)).toEqual([
      [true, true, false],
      [false, true, false],
      [true, true, true],
    ]);
  });

  it('draws one rectangle per run of dark modules, offset by the margin', () => {
    const matrix = qrMatrixFromModules(MODULES);
    expect(qrPathData(matrix)).toBe('M0 0h2v1h-2zM1 1h1v1h-1zM0 2h3v1h-3z');
    expect(qrPathData(matrix, 2)).toBe('M2 2h2v1h-2zM3 3h1v1h-1zM2 4h3v1h-3z');
  });

  it('makes a standalone SVG at the chosen size and colours, with the quiet zone', () => {
    const matrix = qrMatrixFromModules(MODULES);
    const svg = qrSvgDocument(matrix, { size: 240, foreground: '#123456', background: '#fedcba', title: 'Code <A&B>' });
    const extent = qrExtent(matrix);
    expect(extent).toBe(3 + 2 * QR_QUIET_ZONE_MODULES);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="240" height="240" viewBox="0 0 11 11"/);
    expect(svg).toContain('<rect width="11" height="11" fill="#fedcba"/>');
    expect(svg).toContain(`<path d="${qrPathData(matrix, QR_QUIET_ZONE_MODULES)}" fill="#123456"/>`);
    expect(svg).toContain('<title>Code &lt;A&amp;B&gt;</title>');
  });

  it('escapes markup in values', () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
  });
});
