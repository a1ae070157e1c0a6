// QR codes as plain data (docs/product/routes-and-screens.md#referral-qr-panel, docs/product/rules-and-constants.md#look-and-feel): each side computes the matrix
// with the `qrcode` package (level H) and hands it here, so the SVG drawing is written once and
// the browser's downloads, the banners and the server's images draw the same modules.

/** Rows of modules, `true` = dark. Square. */
export type QrMatrix = readonly (readonly boolean[])[];

/** Light modules around the code that scanners need; 4 is the standard's quiet zone. */
export const QR_QUIET_ZONE_MODULES = 4;

/** The shape of `QRCode.create(…).modules` (a BitMatrix): `size` × `size` bytes, row by row. */
export interface QrModules {
  size: number;
  data: ArrayLike<number>;
}

export function qrMatrixFromModules(modules: QrModules): QrMatrix {
  const rows: boolean[][] = [];
  for (let row = 0; row < modules.size; row += 1) {
    const cells: boolean[] = [];
    for (let column = 0; column < modules.size; column += 1)
      cells.push(Boolean(modules.data[row * modules.size + column]));
    rows.push(cells);
  }
  return rows;
}

/** A horizontal run of dark modules: `length` modules from `column` in `row`. */
export interface QrRun {
  row: number;
  column: number;
  length: number;
}

/**
 * The dark modules as horizontal runs, row by row. Drawing one rectangle per run gives far fewer
 * shapes than one per module, and no seams between neighbours (SVG paths and PDF pages alike).
 */
export function qrRuns(matrix: QrMatrix): QrRun[] {
  const runs: QrRun[] = [];
  matrix.forEach((cells, row) => {
    let column = 0;
    while (column < cells.length) {
      if (!cells[column]) {
        column += 1;
        continue;
      }
      const start = column;
      while (column < cells.length && cells[column]) column += 1;
      runs.push({ row, column: start, length: column - start });
    }
  });
  return runs;
}

/** SVG path data of the dark modules, in module units, offset by `margin` modules: one rectangle per run. */
export function qrPathData(matrix: QrMatrix, margin = 0): string {
  return qrRuns(matrix)
    .map(({ row, column, length }) => `M${column + margin} ${row + margin}h${length}v1h-${length}z`)
    .join('');
}

/** Modules across the whole image, quiet zone included. */
export function qrExtent(matrix: QrMatrix, margin = QR_QUIET_ZONE_MODULES): number {
  return matrix.length + 2 * margin;
}

export interface QrSvgOptions {
  /** Width and height of the image in px. */
  size: number;
  foreground: string;
  background: string;
  margin?: number;
  /** Accessible name; the downloaded file carries it as <title>. */
  title?: string;
}

/** A standalone SVG document of the code (the panel's SVG download). */
export function qrSvgDocument(matrix: QrMatrix, options: QrSvgOptions): string {
  const margin = options.margin ?? QR_QUIET_ZONE_MODULES;
  const extent = qrExtent(matrix, margin);
  const title = options.title ? `<title>${escapeXml(options.title)}</title>` : '';
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${options.size}" height="${options.size}" viewBox="0 0 ${extent} ${extent}" shape-rendering="crispEdges">`,
    title,
    `<rect width="${extent}" height="${extent}" fill="${escapeXml(options.background)}"/>`,
    `<path d="${qrPathData(matrix, margin)}" fill="${escapeXml(options.foreground)}"/>`,
    '</svg>',
  ].join('');
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text and attribute values inside SVG/HTML markup. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => XML_ESCAPES[character] ?? character);
}
