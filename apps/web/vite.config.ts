import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { reactRouter } from '@react-router/dev/vite';
import { type Plugin, defineConfig } from 'vite';

// Chunking (ADR 005): the libraries every page needs in one `vendor` chunk and the shell every public
// page needs in one `app` chunk — one well-compressed file each instead of a dozen small ones. What
// several pages of one area share is grouped the same way: every distinct file costs each page a
// few bytes of the route manifest it loads.

const VENDOR = /node_modules\/(react|react-dom|react-router|scheduler|i18next|cookie|set-cookie-parser|turbo-stream)\//;

const APP = new RegExp(
  [
    String.raw`app/lib/(i18n|react-i18n|site-config|consent)\.tsx?`,
    // The store badges: the public footer, the home page, the landing and the web app show them; a chunk
    // of their own cost the busiest public page more than the affiliate pages pay to carry them here.
    String.raw`app/components/(page-meta|language-toggle|store-links)\.tsx`,
    String.raw`app/features/consent/consent-banner\.tsx`,
    String.raw`app/features/vitals/`,
    String.raw`packages/shared/src/(site/(constants|timing)|landing/(constants|landing-path))\.ts`,
    // The public site's styles stay one stylesheet that every page has cached after the first, as
    // global.css was: each component imports its own file, and the manifest (which every page loads
    // as JavaScript) names one file instead of one per component and page. Their rules must not
    // depend on the order of the stylesheets: a chunk loaded later may link app.css again, last.
    String.raw`app/components/(site-header|site-footer|public-footer|store-links|language-toggle|consent-preferences-button|legal-page|info-page|accordion|marketing-sections|tabs|account-header)\.css`,
  ].join('|'),
);

// What every affiliate page (and the console) reads: the session, its pages' addresses, the
// programme's figures and their wording, in one chunk instead of four small ones.
const AFFILIATE = new RegExp(
  [
    String.raw`app/lib/auth/(session|get-session|auth-error)\.tsx?`,
    String.raw`app/components/affiliate-programme\.ts`,
    String.raw`packages/shared/src/affiliate/(constants|programme)\.ts`,
  ].join('|'),
);

// What the signed-in pages share: formatting, tabs, their header, the bar chart, session and signing out, and the browser
// tools of the pages that make files (downloads, clipboard, SVG to PNG).
const SIGNED_IN =
  /app\/lib\/(format|auth\/signed-in|download|clipboard|svg-image)\.ts|app\/components\/(tabs|account-header|bar-chart|bar-chart-layout)\.tsx?|packages\/shared\/src\/affiliate\/money\.ts/;

// QR codes (the library and its settings) and the materials' file names: the three pages that make
// QR codes or materials (dashboard, QR code, marketing) load them together.
const QR = /app\/lib\/qr-code\.ts|node_modules\/qrcode\/|packages\/shared\/src\/marketing\/assets\.ts/;

// TanStack Query, which every signed-in page uses: one chunk instead of four. The two clients of the
// server (its functions, sign-in) likewise: the pages and forms that use one mostly use both; with them,
// how a form reads a refusal (field errors, ADR 009).
const QUERY = /node_modules\/@tanstack\//;
const API = /app\/lib\/(callable|form-errors|auth\/auth-client)\.ts|packages\/shared\/src\/callable\/field-errors\.ts/;

// Zod and what every form's schema uses with it (ADR 009): one chunk that the forms load after the page,
// instead of a common chunk cut differently for each set of forms.
const FORMS = /node_modules\/zod\/|packages\/shared\/src\/(site\/browser-zod|callable\/storable-text)\.ts/;

// What the web app's route (its inline script, its paths) shares with the app's frame: one chunk
// beside the route's, instead of one per module (features/studio/app-pages.ts splits the app's pages).
const STUDIO_ROUTE = /app\/features\/studio\/returning-hint\.ts|packages\/shared\/src\/studio\/constants\.ts/;

// The web app's face models and WebAssembly runtime (ADR 010), served from our own origin under the
// hashed assets (immutable caching): only the models the analysis uses. Their folder is named by a
// digest of their bytes; the app reads its address from `virtual:studio-models`.
const require = createRequire(import.meta.url);
// The package's exports map has no package.json entry: its main file is in dist/.
const HUMAN_MODELS = path.join(path.dirname(require.resolve('@vladmandic/human')), '..', 'models');
const TFJS_WASM = path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist');
const STUDIO_FILES = [
  ...['blazeface', 'facemesh', 'iris'].flatMap((model) =>
    ['json', 'bin'].map((ext) => path.join(HUMAN_MODELS, `${model}.${ext}`)),
  ),
  // Without cross-origin isolation the runtime never picks its threaded build.
  ...['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm'].map((name) => path.join(TFJS_WASM, name)),
];
const VIRTUAL_ID = 'virtual:studio-models';
// STUDIO_WORKER_DIR (packages/shared/src/studio/offline.ts; the config cannot load the workspace's
// TypeScript): the service worker's build fails when the analysis worker is not there.
const WORKER_FILES = 'studio-assets/[name]-[hash].js';
/** Under the hashed assets, so the server caches them for a year like every other asset. */
const STUDIO_MODELS_PREFIX = '/assets/studio-models/';

function studioModels(): Plugin {
  const digest = createHash('sha256');
  for (const file of STUDIO_FILES) digest.update(path.basename(file)).update(readFileSync(file));
  const base = `${STUDIO_MODELS_PREFIX}${digest.digest('hex').slice(0, 12)}/`;
  let isClientBuild = false;
  return {
    name: 'skanova-studio-models',
    configResolved(config) {
      isClientBuild = config.command === 'build' && !config.build.ssr;
    },
    resolveId: (id) => (id === VIRTUAL_ID ? `\0${VIRTUAL_ID}` : undefined),
    load: (id) => (id === `\0${VIRTUAL_ID}` ? `export const MODELS_BASE = ${JSON.stringify(base)};` : undefined),
    generateBundle() {
      if (!isClientBuild) return;
      for (const file of STUDIO_FILES)
        this.emitFile({
          type: 'asset',
          fileName: `${base.slice(1)}${path.basename(file)}`,
          source: readFileSync(file),
        });
    },
  };
}

export default defineConfig({
  plugins: [reactRouter(), studioModels()],
  // The analysis worker imports the face model's runtime in chunks of its own. It lives under the web
  // app's service worker scope, so that its fetches (the models) are served offline too (ADR 011).
  worker: {
    format: 'es',
    rolldownOptions: { output: { entryFileNames: WORKER_FILES, chunkFileNames: WORKER_FILES } },
  },
  build: {
    // The module graph (client/.vite/manifest.json, never served): the service worker keeps what the
    // web app's pages reach in it (scripts/build-service-worker.ts).
    manifest: true,
    assetsInlineLimit: 0,
    rolldownOptions: {
      // The bundler's report of slow plugins depends on how busy the machine is, not on the build: one
      // build of two printed a dozen lines of it (README, "Quick start": the build says what it made).
      checks: { bundlerTimings: false },
      output: {
        // File names carry hex hashes: every page's first load names a dozen files (the route manifest
        // lists them all), and hex compresses better than base64 — ≈ 120 B gzip less on every page, and
        // a content change elsewhere no longer moves the public pages' weight across the budget by luck.
        hashCharacters: 'hex',
        codeSplitting: {
          groups: [
            { name: 'vendor', test: VENDOR },
            { name: 'app', test: APP },
            { name: 'affiliate', test: AFFILIATE },
            { name: 'query', test: QUERY },
            { name: 'api', test: API },
            { name: 'browser-zod', test: FORMS },
            { name: 'signed-in', test: SIGNED_IN },
            { name: 'qr', test: QR },
            { name: 'studio-route', test: STUDIO_ROUTE },
          ],
        },
      },
    },
  },
});
