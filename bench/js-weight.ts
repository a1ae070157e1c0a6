import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { AFFILIATE_PROTECTED_PAGES, AFFILIATE_PUBLIC_PAGES } from '../packages/shared/src/affiliate/constants.ts';
import { LANDING_PAGE, LANGUAGES, PUBLIC_PAGES } from '../packages/shared/src/site/constants.ts';
import { STUDIO_PAGES } from '../packages/shared/src/studio/constants.ts';

// First-load JavaScript of every prerendered page (docs/product/rules-and-constants.md#quality-bar): the scripts a page's HTML loads
// (modulepreload links and module scripts) plus everything they import statically, gzip -9 each,
// summed per page and language. Dynamic imports (web-vitals, qrcode, other languages) are not part
// of the first load and are left out. Budget: 130 KiB for the pages anyone opens; the signed-in pages
// (dashboard, QR, marketing) are measured too but carry their tools (TanStack Query, charts, QR) by design.
// Run alone: node --import tsx bench/js-weight.ts   (WEB_BUILD_DIR=<build folder>, default apps/web/build)

export const JS_BUDGET_KIB = 130;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface PageWeight {
  page: string;
  lang: string;
  files: { name: string; gzipBytes: number; brotliBytes: number }[];
  gzipBytes: number;
  /** What Chromium actually downloads: the server sends the build's pre-compressed brotli files. */
  brotliBytes: number;
}

function buildDir(): string {
  return path.resolve(ROOT, process.env.WEB_BUILD_DIR ?? 'apps/web/build');
}

/** `/assets/x.js` references of the page: modulepreloads, module script sources and inline module imports. */
function entryScripts(html: string): string[] {
  const names = new Set<string>();
  for (const match of html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*href="\/assets\/([^"]+\.js)"/g))
    names.add(match[1]!);
  for (const match of html.matchAll(/<script\b[^>]*src="\/assets\/([^"]+\.js)"/g)) names.add(match[1]!);
  for (const script of html.matchAll(/<script\b[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/g)) {
    for (const match of (script[1] ?? '').matchAll(/\bimport\s*(?:[^'"()]*?\bfrom\s*)?["']\/assets\/([^"']+\.js)["']/g))
      names.add(match[1]!);
  }
  return [...names];
}

/** Static imports of a chunk (`import … from "./x.js"`, `export … from "./x.js"`, `import "./x.js"`), not `import()`. */
function staticImports(source: string): string[] {
  return [...source.matchAll(/\b(?:import|export)\s*(?:[^'"()]*?\bfrom\s*)?["']\.\/([^"']+\.js)["']/g)].map(
    (match) => match[1]!,
  );
}

export function measurePage(
  clientDir: string,
  page: string,
  lang: string,
  cache = new Map<string, { gzipBytes: number; brotliBytes: number }>(),
): PageWeight {
  const htmlFile = path.join(clientDir, page === '/' ? '' : page, 'index.html');
  const html = readFileSync(htmlFile, 'utf8');
  const seen = new Set<string>();
  const queue = entryScripts(html);
  while (queue.length > 0) {
    const name = queue.shift()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const source = readFileSync(path.join(clientDir, 'assets', name), 'utf8');
    queue.push(...staticImports(source));
  }
  const files = [...seen].map((name) => {
    let sizes = cache.get(name);
    if (sizes === undefined) {
      const content = readFileSync(path.join(clientDir, 'assets', name));
      sizes = {
        gzipBytes: gzipSync(content, { level: 9 }).length,
        brotliBytes: brotliCompressSync(content, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }).length,
      };
      cache.set(name, sizes);
    }
    return { name, ...sizes };
  });
  files.sort((a, b) => b.gzipBytes - a.gzipBytes);
  return {
    page,
    lang,
    files,
    gzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0),
    brotliBytes: files.reduce((sum, file) => sum + file.brotliBytes, 0),
  };
}

export function measureAll(dir = buildDir()): PageWeight[] {
  const results: PageWeight[] = [];
  const cache = new Map<string, { gzipBytes: number; brotliBytes: number }>();
  for (const lang of LANGUAGES) {
    const clientDir = path.join(dir, lang, 'client');
    if (!existsSync(clientDir))
      throw new Error(`No build at ${clientDir}: run "npm run build" (or set WEB_BUILD_DIR).`);
    for (const page of [
      ...PUBLIC_PAGES,
      LANDING_PAGE,
      ...STUDIO_PAGES,
      ...AFFILIATE_PUBLIC_PAGES,
      ...AFFILIATE_PROTECTED_PAGES,
    ]) {
      results.push(measurePage(clientDir, page, lang, cache));
    }
  }
  return results;
}

const kib = (bytes: number) => (bytes / 1024).toFixed(1);

/** Markdown: one row per page (both languages), the largest chunks of the heaviest page. */
export function report(results: PageWeight[]): string {
  const lines = [
    `First-load JavaScript per page (gzip -9, KiB; budget ${JS_BUDGET_KIB} KiB)`,
    '',
    '| Page | fr | en | brotli (fr) | Files | Within budget |',
    '|---|---:|---:|---:|---:|---|',
  ];
  const pages = [...new Set(results.map((result) => result.page))];
  for (const page of pages) {
    const row = LANGUAGES.map((lang) => results.find((result) => result.page === page && result.lang === lang)!);
    const worst = Math.max(...row.map((result) => result.gzipBytes));
    const within = !hasBudget(page)
      ? 'n/a (signed in)'
      : worst <= JS_BUDGET_KIB * 1024
        ? 'yes'
        : `**no** (+${((worst - JS_BUDGET_KIB * 1024) / 1024).toFixed(2)})`;
    lines.push(
      `| ${page} | ${row.map((result) => kib(result.gzipBytes)).join(' | ')} | ${kib(row[0]!.brotliBytes)} | ${row[0]!.files.length} | ${within} |`,
    );
  }
  const heaviest = results
    .filter((result) => hasBudget(result.page))
    .reduce((a, b) => (b.gzipBytes > a.gzipBytes ? b : a));
  lines.push(
    '',
    `Largest chunks of the heaviest page (${heaviest.page}, ${heaviest.lang}, ${kib(heaviest.gzipBytes)} KiB):`,
    '',
  );
  lines.push('| Chunk | KiB gzip |', '|---|---:|');
  for (const file of heaviest.files)
    lines.push(`| ${file.name.replace(/-[\w-]{8}\.js$/, '.js')} | ${kib(file.gzipBytes)} |`);
  return lines.join('\n');
}

/** Signed-in pages are measured without a budget. */
export function hasBudget(page: string): boolean {
  return !(AFFILIATE_PROTECTED_PAGES as readonly string[]).includes(page);
}

export function withinBudget(results: PageWeight[]): boolean {
  return results.filter((result) => hasBudget(result.page)).every((result) => result.gzipBytes <= JS_BUDGET_KIB * 1024);
}

export default async function run(): Promise<string> {
  return report(measureAll());
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const results = measureAll();
    console.log(report(results));
    process.exit(withinBudget(results) ? 0 : 1);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
