import type { Browser, Page } from '@playwright/test';
import { launchBenchChromium } from './lib/chromium.ts';
import {
  STUDIO_COMPARE_PAGE,
  STUDIO_CONSULTATION_PAGE,
  STUDIO_DATA_PAGE,
  STUDIO_HOME,
  STUDIO_JOURNAL_PAGE,
  STUDIO_RESULT_PAGE,
  STUDIO_ROUTINE_PAGE,
  STUDIO_SCAN_PAGE,
} from '../packages/shared/src/studio/constants.ts';
import { journalEntries, journalTemplate } from './lib/journal-records.ts';
import { type JournalTemplate, seedJournal } from './lib/journal-seed.ts';
import { startProduct } from './lib/product-server.ts';
import { runAsScript } from './lib/run-as-script.ts';

// Cumulative layout shift of every page of the web app (docs/benchmarks.md#web-app-layout-shift): the
// built product, headless Chromium with the CPU slowed 4× (as Lighthouse's mobile run), each page
// loaded from the server and watched until it has settled. The app paints its prerendered frame,
// then fills it from the device's storage (IndexedDB): whatever moves then counts. Three devices: a
// first visit (no consent: every page shows or sends to the consent), consent given and no scan, and
// consent with saved scans (the journal's seeded records: a real analysis, its preview).
// CLS as web-vitals and Lighthouse compute it: the largest session window of shifts without input.
// Run alone: npm run build && node --import tsx bench/studio-layout-shift.bench.ts
//   LAYOUT_SHIFT_PORT (default 3109), LAYOUT_SHIFT_RUNS (default 3; the largest is reported),
//   LAYOUT_SHIFT_PAGES (default every page; e.g. "/studio/journal,/studio/compare"),
//   WEB_BUILD_DIR, CHROMIUM_PATH (default /usr/bin/chromium).

const PORT = Number(process.env.LAYOUT_SHIFT_PORT ?? 3109);
const RUNS = Math.max(1, Number(process.env.LAYOUT_SHIFT_RUNS ?? 3));
/** Only these pages (their paths without the query), when given. */
const ONLY = (process.env.LAYOUT_SHIFT_PAGES ?? '').split(',').filter(Boolean);
const GOAL = 0.1;
const SCANS = 6;
const VIEWPORTS = [
  { name: 'phone', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

type Device = 'first visit' | 'no scan' | `${number} scans`;

const PAGES = (firstId: string, lastId: string) => [
  STUDIO_HOME,
  STUDIO_SCAN_PAGE,
  `${STUDIO_RESULT_PAGE}?id=${lastId}`,
  STUDIO_JOURNAL_PAGE,
  `${STUDIO_COMPARE_PAGE}?a=${firstId}&b=${lastId}`,
  STUDIO_CONSULTATION_PAGE,
  STUDIO_ROUTINE_PAGE,
  STUDIO_DATA_PAGE,
];

/**
 * Installed in every document before its scripts: records layout shifts as the session windows of
 * web-vitals (a gap of 1 s or 5 s in all closes a window). Plain JavaScript: the TypeScript loader
 * would add helpers the page does not have.
 */
const SHIFT_PROBE = `(() => {
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      window.__shifts.push({
        at: entry.startTime,
        value: entry.value,
        nodes: entry.sources.map((s) => s.node && s.node.nodeType === 1 ? (s.node.tagName.toLowerCase() + '.' + String(s.node.className).split(' ')[0]) : '#text'),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
})()`;

interface Shift {
  at: number;
  value: number;
  nodes: string[];
}

/** The largest session window (web-vitals' CLS). */
function cumulativeLayoutShift(shifts: Shift[]): number {
  let largest = 0;
  let window = 0;
  let first = -Infinity;
  let previous = -Infinity;
  for (const shift of shifts) {
    if (shift.at - previous > 1000 || shift.at - first > 5000) {
      window = 0;
      first = shift.at;
    }
    window += shift.value;
    previous = shift.at;
    largest = Math.max(largest, window);
  }
  return largest;
}

interface Measured {
  viewport: string;
  device: Device;
  page: string;
  cls: number;
  /** What moved in the worst run, for the causes to look at. */
  moved: string[];
}

async function measurePage(page: Page, url: string): Promise<{ cls: number; moved: string[] }> {
  await page.goto(url);
  // Settled: the storage read, the app's chunk and its pages' own reads are done, then a quiet second.
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1500);
  const shifts = await page.evaluate<Shift[]>('window.__shifts');
  return { cls: cumulativeLayoutShift(shifts), moved: [...new Set(shifts.flatMap((shift) => shift.nodes))] };
}

async function measureDevice(
  browser: Browser,
  baseUrl: string,
  viewport: (typeof VIEWPORTS)[number],
  template: JournalTemplate,
  scans: number,
  consent: boolean,
): Promise<Measured[]> {
  const context = await browser.newContext({ viewport, locale: 'en-GB', timezoneId: 'Europe/Paris' });
  // The site's cookie banner was answered earlier.
  await context.addCookies([{ name: 'consent', value: 'denied', url: baseUrl }]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.addInitScript(SHIFT_PROBE);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });

  const entries = journalEntries(template, scans);
  if (consent) {
    await page.goto(`${baseUrl}${STUDIO_HOME}?lang=en`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await seedJournal(page, template, entries);
  }
  const device: Device = !consent ? 'first visit' : scans === 0 ? 'no scan' : `${scans} scans`;
  const results: Measured[] = [];
  const paths = PAGES(entries[0]?.id ?? 'none', entries.at(-1)?.id ?? 'none');
  for (const path of paths.filter((one) => ONLY.length === 0 || ONLY.includes(one.replace(/\?.*/, '')))) {
    let worst = { cls: -1, moved: [] as string[] };
    for (let run = 0; run < RUNS; run++) {
      const measured = await measurePage(page, `${baseUrl}${path}`);
      if (measured.cls > worst.cls) worst = measured;
    }
    results.push({ viewport: viewport.name, device, page: path.replace(/\?.*/, ''), ...worst });
  }
  if (errors.length > 0) throw new Error(`Errors in the page: ${errors.join('; ')}`);
  await context.close();
  return results;
}

export default async function run(): Promise<string> {
  const template = await journalTemplate();
  const product = await startProduct(PORT);
  const browser = await launchBenchChromium();
  try {
    const results: Measured[] = [];
    for (const viewport of VIEWPORTS) {
      results.push(...(await measureDevice(browser, product.baseUrl, viewport, template, 0, false)));
      results.push(...(await measureDevice(browser, product.baseUrl, viewport, template, 0, true)));
      results.push(...(await measureDevice(browser, product.baseUrl, viewport, template, SCANS, true)));
    }
    const devices = [...new Set(results.map((result) => result.device))];
    const pages = [...new Set(results.map((result) => result.page))];
    const cell = (viewport: string, device: Device, page: string) => {
      const found = results.find((r) => r.viewport === viewport && r.device === device && r.page === page);
      if (!found) return '';
      return found.cls < GOAL ? found.cls.toFixed(3) : `**${found.cls.toFixed(3)}**`;
    };
    const header = `| Page | ${VIEWPORTS.flatMap((v) => devices.map((d) => `${v.name}, ${d}`)).join(' | ')} |`;
    const rows = pages.map(
      (page) => `| ${page} | ${VIEWPORTS.flatMap((v) => devices.map((d) => cell(v.name, d, page))).join(' | ')} |`,
    );
    const causes = results
      .filter((result) => result.cls >= GOAL)
      .map((result) => `- ${result.page} (${result.viewport}, ${result.device}): ${result.moved.join(', ')}`);
    return [
      `Cumulative layout shift (largest of ${RUNS} loads; goal < ${GOAL}); headless Chromium ${browser.version()}, CPU slowed 4×.`,
      '',
      header,
      `|---|${VIEWPORTS.flatMap(() => devices.map(() => '---:')).join('|')}|`,
      ...rows,
      ...(causes.length > 0 ? ['', 'What moved where the goal is missed:', '', ...causes] : []),
    ].join('\n');
  } finally {
    await browser.close();
    await product.stop();
  }
}

runAsScript(import.meta.url, run);
