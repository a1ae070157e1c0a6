// @vitest-environment node
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { STUDIO_BACKGROUND_COLOR, STUDIO_ICONS, STUDIO_THEME_COLOR } from '@skanova/shared/studio/offline';
import { appIcons } from './make-app-icons';

// The web app's install icons and colours (ADR 011): real PNGs of the sizes the manifest announces,
// drawn from the favicon, in the site's own colours.

const WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(path.join(WEB_DIR, file));

/** Width, height and colour type from a PNG's header (IHDR). */
function pngHeader(png: Buffer) {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20), colourType: png[25] };
}

describe('the install icons', () => {
  it('are PNGs of the announced sizes', () => {
    for (const icon of STUDIO_ICONS) {
      const header = pngHeader(read(`public${icon.path}`));
      expect(header, icon.path).toEqual({ width: icon.size, height: icon.size, colourType: 6 });
    }
  });

  it('are what the script draws from the favicon today (run it again when the favicon changes)', () => {
    for (const { icon, png } of appIcons()) expect(read(`public${icon.path}`).equals(png), icon.path).toBe(true);
  });
});

describe("the app's colours", () => {
  it("are the site's tokens, the pages' theme colour and the favicon's", () => {
    const css = read('app/styles/global.css').toString();
    const token = (name: string) => new RegExp(`--${name}:\\s*(#[0-9a-f]{6});`, 'i').exec(css)?.[1]?.toLowerCase();
    expect(STUDIO_THEME_COLOR).toBe(token('color-primary'));
    expect(STUDIO_BACKGROUND_COLOR).toBe(token('color-bg'));
    expect(read('app/root.tsx').toString()).toContain(`<meta name="theme-color" content="${STUDIO_THEME_COLOR}" />`);
    expect(read('public/favicon.svg').toString()).toContain(`fill="${STUDIO_THEME_COLOR}"`);
  });
});
