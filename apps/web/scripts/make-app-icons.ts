// The web app's install icons (ADR 011), made from the site's favicon: the same mark at 192 and 512 px,
// and a maskable 512 px icon whose mark sits inside the safe zone (the central circle of 80 % of the
// width that every launcher's mask keeps) on a full-bleed background. The PNGs are committed in
// apps/web/public; run this again when the favicon changes:
//   node --import tsx apps/web/scripts/make-app-icons.ts
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Resvg } from '@resvg/resvg-js';
import { STUDIO_ICONS, STUDIO_THEME_COLOR, type StudioIcon } from '@skanova/shared/studio/offline';

const PUBLIC_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'public');
/** The mark's share of the maskable icon: its 32-unit box then fits well within the 80 % safe circle. */
const MASKABLE_MARK_SCALE = 0.62;

const favicon = readFileSync(path.join(PUBLIC_DIR, 'favicon.svg'), 'utf8');
const mark = /<path\b[^>]*\/>/.exec(favicon)?.[0];
if (!mark) throw new Error('favicon.svg has no <path>: the icons are drawn from its mark.');

function maskableSvg(): string {
  const offset = (32 * (1 - MASKABLE_MARK_SCALE)) / 2;
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">',
    `<rect width="32" height="32" fill="${STUDIO_THEME_COLOR}"/>`,
    `<g transform="translate(${offset} ${offset}) scale(${MASKABLE_MARK_SCALE})">${mark}</g>`,
    '</svg>',
  ].join('');
}

/** Each install icon and its PNG, drawn from the favicon. */
export function appIcons(): { icon: StudioIcon; png: Buffer }[] {
  return STUDIO_ICONS.map((icon) => {
    const svg = icon.purpose === 'maskable' ? maskableSvg() : favicon;
    return { icon, png: new Resvg(svg, { fitTo: { mode: 'width', value: icon.size } }).render().asPng() };
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const { icon, png } of appIcons()) {
    writeFileSync(path.join(PUBLIC_DIR, path.basename(icon.path)), png);
    console.log(`${icon.path}: ${icon.size}×${icon.size} ${icon.purpose}, ${png.length} bytes`);
  }
}
