import { cpus, loadavg } from 'node:os';
import type { Browser, Page } from '@playwright/test';
import { launchBenchChromium } from './lib/chromium.ts';
import { STUDIO_CONSULTATION_PAGE, STUDIO_HOME, STUDIO_JOURNAL_PAGE } from '../packages/shared/src/studio/constants.ts';
import { journalEntries, journalTemplate } from './lib/journal-records.ts';
import { type JournalTemplate, seedJournal } from './lib/journal-seed.ts';
import { startProduct } from './lib/product-server.ts';
import { runAsScript } from './lib/run-as-script.ts';

// The web app's journal with 200 saved scans (docs/benchmarks.md#your-data-export-and-import): the built product served by the
// real server, headless Chromium, the device's IndexedDB seeded with 200 scans as the app writes them
// (journal-records.ts: a real analysis with its zones and landmarks, a real JPEG preview, the photo
// kept on one in ten). Timed until the trend chart and the timeline are on screen (two animation
// frames after they enter the page): a full page load of /studio/journal, and the journal opened from
// another page of the app through its navigation. Goal: p95 under 200 ms.
// Run alone: npm run build && node --import tsx bench/studio-journal.bench.ts
//   JOURNAL_SCANS (default 200), JOURNAL_RUNS (default 30 timed opens each way, after 3 warm-up ones),
//   JOURNAL_BENCH_PORT (default 3107), WEB_BUILD_DIR, CHROMIUM_PATH (default /usr/bin/chromium).

const SCANS = Number(process.env.JOURNAL_SCANS ?? 200);
const RUNS = Number(process.env.JOURNAL_RUNS ?? 30);
const WARMUP = 3;
const PORT = Number(process.env.JOURNAL_BENCH_PORT ?? 3107);
const GOAL_MS = 200;
const VIEWPORTS = [
  { name: 'phone (375 px)', width: 375, height: 812 },
  { name: 'desktop (1280 px)', width: 1280, height: 900 },
];

/**
 * Installed in every document: notes `performance.now()` once the journal's chart (its line) and its
 * timeline are in the page, two animation frames later (they are painted). Plain JavaScript: the
 * TypeScript loader would add helpers the page does not have.
 */
const DRAWN_PROBE = `(() => {
  window.__journalDrawn = undefined;
  const check = () => {
    if (window.__journalDrawn !== undefined || window.__journalWaiting) return;
    const full = document.querySelector('svg.trend-chart polyline') && document.querySelector('.journal-timeline__list li');
    if (!full && !document.querySelector('.journal-empty')) return;
    window.__journalWaiting = true;
    requestAnimationFrame(() => requestAnimationFrame(() => {
      window.__journalDrawn = performance.now();
      window.__journalWaiting = false;
    }));
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
})()`;

/** When the probe saw the journal painted (polled: the page's policy forbids evaluating strings in it). */
async function drawnAt(page: Page): Promise<number> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const drawn = await page.evaluate<number | undefined>('window.__journalDrawn');
    if (drawn !== undefined) return drawn;
    if (Date.now() > deadline) throw new Error('The journal was not drawn within 30 s.');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function percentile(values: number[], p: number): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

interface Measured {
  viewport: string;
  scans: number;
  /** Navigation start → chart and timeline painted, /studio/journal loaded from the server. */
  pageLoad: number[];
  /** Click on "Journal" in the app's navigation → chart and timeline painted. */
  inApp: number[];
  /** The journal's storage read (listScans of 200 scans) alone, in the page. */
  read: number[];
}

async function measure(
  browser: Browser,
  baseUrl: string,
  viewport: (typeof VIEWPORTS)[number],
  template: JournalTemplate,
  count: number,
): Promise<Measured> {
  const context = await browser.newContext({ viewport, locale: 'en-GB', timezoneId: 'Europe/Paris' });
  // The site's cookie banner was answered earlier.
  await context.addCookies([{ name: 'consent', value: 'denied', url: baseUrl }]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.addInitScript(DRAWN_PROBE);

  // The app's home opens (and creates) its database; then the 200 scans are written as the app writes them.
  await page.goto(`${baseUrl}${STUDIO_HOME}?lang=en`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await seedJournal(page, template, journalEntries(template, count));

  const result: Measured = { viewport: viewport.name, scans: count, pageLoad: [], inApp: [], read: [] };
  for (let run = 0; run < WARMUP + RUNS; run++) {
    await page.goto(`${baseUrl}${STUDIO_JOURNAL_PAGE}`);
    const loaded = await drawnAt(page);
    const shown = await page.locator('.journal-timeline').getByRole('listitem').count();
    if (shown !== Math.min(10, count)) throw new Error(`The journal shows ${shown} scans.`);

    await page.goto(`${baseUrl}${STUDIO_CONSULTATION_PAGE}`);
    // The app is hydrated (its pages render past the consent check) before the click.
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    const clickedAt = await page.evaluate<number>(`(() => {
      window.__journalDrawn = undefined;
      const link = [...document.querySelectorAll('nav a')].find((a) => a.textContent.trim() === 'Journal');
      const at = performance.now();
      link.click();
      return at;
    })()`);
    const opened = (await drawnAt(page)) - clickedAt;

    // The storage read alone: every scan, as the journal asks for them (newest first by the takenAt index).
    const read = await page.evaluate<number>(`new Promise((resolve, reject) => {
      const at = performance.now();
      const open = indexedDB.open('skanova-studio');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const all = open.result.transaction('scans').objectStore('scans').index('takenAt').getAll();
        all.onsuccess = () => { open.result.close(); resolve(performance.now() - at); };
        all.onerror = () => reject(all.error);
      };
    })`);
    if (run < WARMUP) continue;
    result.pageLoad.push(loaded);
    result.inApp.push(opened);
    result.read.push(read);
  }
  if (errors.length > 0) throw new Error(`Errors in the page: ${errors.join('; ')}`);
  await context.close();
  return result;
}

export default async function run(): Promise<string> {
  const template = await journalTemplate();
  const product = await startProduct(PORT);
  const browser = await launchBenchChromium();
  const loadBefore = loadavg()[0]!;
  try {
    const results: Measured[] = [];
    for (const viewport of VIEWPORTS)
      for (const count of [SCANS, 0]) results.push(await measure(browser, product.baseUrl, viewport, template, count));
    const loadAfter = loadavg()[0]!;
    const figure = (values: number[], p: number) => percentile(values, p).toFixed(0);
    const goal = (values: number[]) => (percentile(values, 95) < GOAL_MS ? 'met' : '**missed**');
    const rows = results.flatMap((result) => [
      ...(result.scans === 0
        ? [
            `| ${result.viewport} | baseline, no scan: page load → empty journal painted | ${figure(result.pageLoad, 50)} | ${figure(result.pageLoad, 95)} | ${figure(result.pageLoad, 100)} | |`,
            `| ${result.viewport} | baseline, no scan: click on Journal → empty journal painted | ${figure(result.inApp, 50)} | ${figure(result.inApp, 95)} | ${figure(result.inApp, 100)} | |`,
          ]
        : [
            `| ${result.viewport} | page load (navigation start → painted) | ${figure(result.pageLoad, 50)} | ${figure(result.pageLoad, 95)} | ${figure(result.pageLoad, 100)} | ${goal(result.pageLoad)} |`,
            `| ${result.viewport} | in the app (click on Journal → painted) | ${figure(result.inApp, 50)} | ${figure(result.inApp, 95)} | ${figure(result.inApp, 100)} | ${goal(result.inApp)} |`,
            `| ${result.viewport} | of which: reading the ${SCANS} scans (IndexedDB) | ${figure(result.read, 50)} | ${figure(result.read, 95)} | ${figure(result.read, 100)} | |`,
          ]),
    ]);
    return [
      `${SCANS} saved scans, ${RUNS} timed opens each way after ${WARMUP} warm-up ones; headless Chromium ${browser.version()}, ${cpus().length} cores; load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after.`,
      '',
      `| Viewport | Open | p50 (ms) | p95 (ms) | max (ms) | p95 < ${GOAL_MS} ms |`,
      '| --- | --- | ---: | ---: | ---: | --- |',
      ...rows,
    ].join('\n');
  } finally {
    await browser.close();
    await product.stop();
  }
}

runAsScript(import.meta.url, run);
