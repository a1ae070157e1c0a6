// After both language builds and postbuild: the web app's service worker (ADR 011). Lists what the
// app needs offline (studio-precache.ts) and bundles app/features/studio/offline/service-worker.ts with
// that list into <client>/studio-sw.js for each language (the same file: the list holds both languages).
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Rolldown, build } from 'vite';
import { LANGUAGES } from '@skanova/shared/site/constants';
import { STUDIO_PAGES } from '@skanova/shared/studio/constants';
import { STUDIO_SW_PATH } from '@skanova/shared/studio/offline';
import { type AppPageHtml, type ViteManifest, studioPrecache } from './studio-precache';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const buildDir = path.resolve(webDir, process.env.SITE_BUILD_DIR ?? 'build');
const clientDir = (lang: string) => path.join(buildDir, lang, 'client');
// The client assets are identical in both languages (postbuild.ts): the first language's folder is read.
const [firstLang] = LANGUAGES;
const root = clientDir(firstLang);

/** What the server serves from the client folder: no HTML (pages are served by path), no compressed copies, not the build's notes. */
function servedFiles(dir: string): Map<string, number> {
  const files = new Map<string, number>();
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const file = name.split(path.sep).join('/');
    if (file.startsWith('.vite/') || /\.(html|br|gz)$/.test(file) || `/${file}` === STUDIO_SW_PATH) continue;
    const stat = statSync(path.join(dir, name));
    if (stat.isFile()) files.set(file, stat.size);
  }
  return files;
}

const pages: AppPageHtml[] = LANGUAGES.flatMap((lang) =>
  STUDIO_PAGES.map((pagePath) => ({
    path: pagePath,
    lang,
    html: readFileSync(path.join(clientDir(lang), pagePath, 'index.html'), 'utf8'),
  })),
);
const entries = studioPrecache({
  files: servedFiles(root),
  manifest: JSON.parse(readFileSync(path.join(root, '.vite', 'manifest.json'), 'utf8')) as ViteManifest,
  pages,
  readText: (file) => readFileSync(path.join(root, file), 'utf8'),
  digest: (file) =>
    createHash('sha256')
      .update(readFileSync(path.join(root, file)))
      .digest('hex')
      .slice(0, 16),
});

const VIRTUAL_ID = 'virtual:studio-precache';
const output = await build({
  configFile: false,
  root: webDir,
  logLevel: 'warn',
  mode: 'production',
  // Workbox logs and checks its calls outside production builds.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  plugins: [
    {
      name: 'skanova-studio-precache',
      resolveId: (id) => (id === VIRTUAL_ID ? `\0${VIRTUAL_ID}` : undefined),
      load: (id) =>
        id === `\0${VIRTUAL_ID}`
          ? `export const PRECACHE = ${JSON.stringify(entries.map(({ url, revision }) => ({ url, revision })))};`
          : undefined,
    },
  ],
  build: {
    write: false,
    emptyOutDir: false,
    target: 'es2022',
    minify: true,
    // A classic script: every browser with service workers runs it (module workers are recent in some).
    lib: {
      entry: path.join(webDir, 'app/features/studio/offline/service-worker.ts'),
      formats: ['iife'],
      name: 'studioServiceWorker',
      fileName: () => 'studio-sw.js',
    },
  },
});
const [result] = (Array.isArray(output) ? output : [output]) as Rolldown.RolldownOutput[];
const chunk = result?.output.find((item) => item.type === 'chunk');
if (!chunk) throw new Error('The service worker bundle is empty.');
for (const lang of LANGUAGES) writeFileSync(path.join(clientDir(lang), STUDIO_SW_PATH.slice(1)), chunk.code);

const total = entries.reduce((sum, entry) => sum + entry.bytes, 0);
console.log(
  `service worker: ${STUDIO_SW_PATH} (${chunk.code.length} bytes) keeps ${entries.length} files, ${(total / 1024 / 1024).toFixed(1)} MiB.`,
);
