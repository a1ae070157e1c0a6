import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, type Page, chromium } from '@playwright/test';
import en from '../packages/shared/src/i18n/en/studio.json' with { type: 'json' };
import { ANALYSIS_TIMINGS } from '../apps/web/app/features/studio/analysis-protocol.ts';
import { CONSENT_COOKIE } from '../packages/shared/src/site/constants.ts';
import { chromiumArgs } from '../playwright.config.ts';
import { startProduct } from './lib/product-server.ts';
import { runAsScript } from './lib/run-as-script.ts';

// The web app in headless Chromium against the built product (docs/benchmarks.md#skin-analysis):
// - cold open of the capture page → first result, on an empty browser cache (consent already given);
// - bytes transferred on that first visit (compressed as served), by kind, then on a second visit;
// - warm analysis time per photo (pixels, landmarks, zones and every metric), from the User Timing
//   measures the page records for each analysis (ANALYSIS_TIMINGS).
// Run alone: node --import tsx bench/skin-browser.bench.ts   (build first: npm run build)
//   SKIN_BROWSER_RUNS=<warm analyses per photo, default 20>, SKIN_BROWSER_COLD=<cold opens, default 3>,
//   SKIN_BROWSER_PORT (default 3107), CHROMIUM_PATH (default /usr/bin/chromium).

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = path.join(ROOT, 'packages/skin/test/fixtures');
const PHOTOS = ['face-sample3-a.jpg', 'face-sample6-a.jpg', 'face-sample6-b.jpg'];
const RUNS = Number(process.env.SKIN_BROWSER_RUNS ?? 20);
const COLD_OPENS = Number(process.env.SKIN_BROWSER_COLD ?? 3);
const WARMUP = 2;
const PORT = Number(process.env.SKIN_BROWSER_PORT ?? 3107);
const RESULT_TIMEOUT = 120_000;

function percentile(values: number[], p: number): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

type Kind = 'models' | 'runtime' | 'page';

/** What a request fetched: the face models, the model runtime (its WebAssembly and worker), or the page itself. */
function kindOf(url: string): Kind {
  const { pathname } = new URL(url);
  if (pathname.includes('/studio-models/')) return pathname.endsWith('.wasm') ? 'runtime' : 'models';
  if (/analysis\.worker|human/i.test(pathname)) return 'runtime';
  return 'page';
}

type Visit = { bytes: Record<Kind, number>; files: Record<Kind, number> };

/**
 * Bytes received over the network (compressed as served, headers included) by a visit's pages and
 * their worker, by kind. What a page fetched comes from its Resource Timing (`transferSize`: 0 when
 * the cache answered), which also sees the worker's script; what the worker fetched (the models and
 * the WebAssembly) is only visible to Playwright's network events, whose sizes count here unless the
 * response came from the cache.
 */
function countBytes(context: BrowserContext) {
  const workerSide: Promise<{ url: string; bytes: number }>[] = [];
  context.on('requestfinished', (request) => {
    workerSide.push(
      (async () => {
        const response = await request.response();
        if (!response || response.fromServiceWorker()) return { url: request.url(), bytes: 0 };
        const sizes = await request.sizes();
        return { url: request.url(), bytes: Math.max(0, sizes.responseBodySize + sizes.responseHeadersSize) };
      })(),
    );
  });
  return {
    async settle(pages: Page[]): Promise<Visit> {
      const visit: Visit = { bytes: { models: 0, runtime: 0, page: 0 }, files: { models: 0, runtime: 0, page: 0 } };
      const add = (url: string, bytes: number) => {
        if (bytes <= 0) return;
        visit.bytes[kindOf(url)] += bytes;
        visit.files[kindOf(url)]++;
      };
      const seenByPages = new Set<string>();
      for (const page of pages) {
        const entries = await page.evaluate(() =>
          [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].map(
            (entry) => [entry.name, (entry as PerformanceResourceTiming).transferSize] as const,
          ),
        );
        for (const [url, bytes] of entries) {
          seenByPages.add(url);
          add(url, bytes);
        }
      }
      for (const { url, bytes } of await Promise.all(workerSide)) if (!seenByPages.has(url)) add(url, bytes);
      workerSide.length = 0;
      return visit;
    },
  };
}

/** The site's cookie banner answered, then the app's consent given as a visitor gives it (on the app's home). */
async function giveConsent(page: Page, baseUrl: string) {
  await page.context().addCookies([{ name: CONSENT_COOKIE, value: 'denied', url: baseUrl }]);
  await page.goto(`${baseUrl}/studio?lang=en`);
  await page.getByRole('checkbox', { name: en.consent.ageLabel }).check();
  await page.getByRole('checkbox', { name: en.consent.consentLabel }).check();
  await page.getByRole('button', { name: en.consent.submit }).click();
  await page.getByRole('heading', { level: 1, name: en.home.title }).waitFor();
}

/** Opens the capture page, chooses `photo` as soon as the page offers it, and waits for the result. */
async function openAndAnalyse(page: Page, baseUrl: string, photo: string): Promise<number> {
  const started = performance.now();
  await page.goto(`${baseUrl}/studio/scan`);
  await page.getByLabel(en.scan.uploadPhoto).setInputFiles(path.join(FIXTURES, photo));
  await page.getByRole('heading', { level: 1, name: en.result.title }).waitFor({ timeout: RESULT_TIMEOUT });
  return performance.now() - started;
}

/** Analyses `photo` again on the open capture page ("New scan" → choose the photo → result). */
async function analyseAgain(page: Page, photo: string) {
  await page.getByRole('button', { name: en.result.newScan }).click();
  await page.getByLabel(en.scan.uploadPhoto).setInputFiles(path.join(FIXTURES, photo));
  await page.getByRole('heading', { level: 1, name: en.result.title }).waitFor({ timeout: RESULT_TIMEOUT });
}

async function measures(page: Page): Promise<Record<keyof typeof ANALYSIS_TIMINGS, number[]>> {
  // No named function inside: the page would not know the name helper the TypeScript loader adds.
  return page.evaluate((names) => {
    const durations = Object.entries(names).map(([step, name]) => [
      step,
      performance.getEntriesByName(name, 'measure').map((entry) => entry.duration),
    ]);
    return Object.fromEntries(durations) as Record<keyof typeof names, number[]>;
  }, ANALYSIS_TIMINGS);
}

const MB = (bytes: number) => (bytes / 1e6).toFixed(2);
const KB = (bytes: number) => (bytes / 1e3).toFixed(1);

export default async function run(): Promise<string> {
  const product = await startProduct(PORT);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: chromiumArgs,
  });
  try {
    // Cold opens: each in a new profile whose consent is given, then whose HTTP cache is emptied.
    const cold: number[] = [];
    let firstVisit: Visit | undefined;
    let secondVisit: typeof firstVisit;
    let secondOpen = Number.NaN;
    let backend = '';
    for (let k = 0; k < COLD_OPENS; k++) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await giveConsent(page, product.baseUrl);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.clearBrowserCache');
      const counter = countBytes(context);
      cold.push(await openAndAnalyse(page, product.baseUrl, PHOTOS[0]!));
      if (k === 0) {
        firstVisit = await counter.settle([page]);
        // The second visit: a new tab in the same profile, the browser's cache as the first visit left it.
        const again = await context.newPage();
        secondOpen = await openAndAnalyse(again, product.baseUrl, PHOTOS[0]!);
        secondVisit = await counter.settle([again]);
        backend = await again.evaluate(
          (name) => (performance.getEntriesByName(name)[0] as PerformanceMeasure | undefined)?.detail?.backend,
          ANALYSIS_TIMINGS.total,
        );
      }
      await context.close();
    }

    // Warm analyses: one capture page, the models loaded, every photo analysed RUNS times after a warm-up.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await giveConsent(page, product.baseUrl);
    await openAndAnalyse(page, product.baseUrl, PHOTOS[0]!);
    for (let k = 0; k < WARMUP; k++) await analyseAgain(page, PHOTOS[0]!);
    const skip = (await measures(page)).total.length;
    for (const photo of PHOTOS) for (let k = 0; k < RUNS; k++) await analyseAgain(page, photo);
    const all = await measures(page);
    await context.close();
    const warm = Object.fromEntries(
      Object.entries(all).map(([step, values]) => [step, values.slice(skip)]),
    ) as typeof all;

    const first = firstVisit!;
    const second = secondVisit!;
    const total = (visit: typeof first) => visit.bytes.models + visit.bytes.runtime + visit.bytes.page;
    const row = (name: string, values: number[]) =>
      `| ${name} | ${percentile(values, 50).toFixed(1)} | ${percentile(values, 95).toFixed(1)} |`;
    return [
      `Headless Chromium ${browser.version()} (no GPU; the model ran on the ${backend} backend), the production build served by the product on localhost; ${PHOTOS.length} photos; load average ${loadavg()[0]!.toFixed(1)} at the end.`,
      '',
      `Warm analysis per photo (${RUNS} runs × ${PHOTOS.length} photos after ${WARMUP} warm-up runs, User Timing measures of the page):`,
      '',
      '| Step | p50 (ms) | p95 (ms) |',
      '| --- | ---: | ---: |',
      row('Pixels read from the photo', warm.pixels),
      row('Landmarks (detector + mesh + iris)', warm.landmarks),
      row('Analysis (gates + zones + metrics)', warm.analysis),
      row('Whole request as the page sees it (goal p95 ≤ 150)', warm.total),
      '',
      `Cold open of the capture page → first result (empty cache, ${COLD_OPENS} profiles; goal ≤ 3,000 ms): ` +
        `median ${percentile(cold, 50).toFixed(0)} ms, worst ${Math.max(...cold).toFixed(0)} ms ` +
        `(each: ${cold.map((ms) => ms.toFixed(0)).join(', ')} ms). Second visit (cached): ${secondOpen.toFixed(0)} ms.`,
      '',
      '| Bytes transferred (compressed as served) | First visit | Second visit |',
      '| --- | ---: | ---: |',
      `| Face models (${first.files.models} files) | ${MB(first.bytes.models)} MB | ${KB(second.bytes.models)} kB |`,
      `| Model runtime: worker and WebAssembly (${first.files.runtime} files) | ${MB(first.bytes.runtime)} MB | ${KB(second.bytes.runtime)} kB |`,
      `| Models and runtime (goal ≤ 5 MB) | ${MB(first.bytes.models + first.bytes.runtime)} MB | ${KB(second.bytes.models + second.bytes.runtime)} kB |`,
      `| The page: HTML, app code, styles, strings (${first.files.page} files) | ${MB(first.bytes.page)} MB | ${KB(second.bytes.page)} kB (${second.files.page} files) |`,
      `| Everything | ${MB(total(first))} MB | ${KB(total(second))} kB |`,
    ].join('\n');
  } finally {
    await browser.close();
    await product.stop();
  }
}

runAsScript(import.meta.url, run);
