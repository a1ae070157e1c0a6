import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startProduct } from './lib/product-server.ts';
import { runAsScript } from './lib/run-as-script.ts';

// Lighthouse 12 with Debian's Chromium against the built product started on its own port
// (docs/product/rules-and-constants.md#quality-bar): mobile on / and /support, the desktop preset on /ref/TESTCODE (the landing sends
// phones to the stores and is noindex, so its SEO score is not a target). Each URL runs
// LIGHTHOUSE_RUNS times (default 3) and the median performance run is reported.
// LIGHTHOUSE_SET=studio measures the web app's pages instead (docs/benchmarks.md#web-app-layout-shift):
// mobile, a first visit (no consent, no scan: what Lighthouse's fresh profile is), in English and in
// French (`?lang=fr`); LIGHTHOUSE_LANGS=en limits it to one language.
// Run alone: node --import tsx bench/lighthouse.bench.ts
//   WEB_BUILD_DIR=<build folder> (default apps/web/build), LIGHTHOUSE_PORT (default 3106),
//   CHROME_PATH (default /usr/bin/chromium), LIGHTHOUSE_RUNS, LIGHTHOUSE_SET, LIGHTHOUSE_LANGS.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LIGHTHOUSE_CLI = path.join(ROOT, 'node_modules', 'lighthouse', 'cli', 'index.js');
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 3106);
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
].join(' ');

const TARGETS = { performance: 98, accessibility: 100, 'best-practices': 100, seo: 100 } as const;
type Category = keyof typeof TARGETS;
const CATEGORIES = Object.keys(TARGETS) as Category[];

interface Scenario {
  path: string;
  formFactor: 'mobile' | 'desktop';
  /** The page is noindex on purpose: SEO is reported but not a target. */
  noindex?: boolean;
}

const SITE_SCENARIOS: Scenario[] = [
  { path: '/', formFactor: 'mobile' },
  { path: '/support', formFactor: 'mobile' },
  { path: '/ref/TESTCODE', formFactor: 'desktop', noindex: true },
];

/** The web app's pages; only `/studio` is indexed (ADR 010), the others read the device. */
const STUDIO_PATHS = [
  '/studio',
  '/studio/scan',
  '/studio/result?id=none',
  '/studio/journal',
  '/studio/compare',
  '/studio/consultation',
  '/studio/routine',
  '/studio/data',
];
const STUDIO_LANGS = (process.env.LIGHTHOUSE_LANGS ?? 'en,fr').split(',').filter(Boolean);
const STUDIO_SCENARIOS: Scenario[] = STUDIO_LANGS.flatMap((lang) =>
  STUDIO_PATHS.map((page) => ({
    path: lang === 'en' ? page : `${page}${page.includes('?') ? '&' : '?'}lang=${lang}`,
    formFactor: 'mobile' as const,
    noindex: page !== '/studio',
  })),
);

const SCENARIOS: Scenario[] = process.env.LIGHTHOUSE_SET === 'studio' ? STUDIO_SCENARIOS : SITE_SCENARIOS;

export interface LighthouseResult {
  scenario: Scenario;
  scores: Record<Category, number>;
  metrics: { fcp: number; lcp: number; tbt: number; cls: number; si: number };
  /** Audits that lost points, with their titles (the causes to look at). */
  failing: Record<Category, string[]>;
}

const run = promisify(execFile);

async function lighthouseOnce(url: string, scenario: Scenario): Promise<LighthouseResult> {
  const outDir = mkdtempSync(path.join(tmpdir(), 'lighthouse-report-'));
  const output = path.join(outDir, 'report.json');
  try {
    await run(
      process.execPath,
      [
        LIGHTHOUSE_CLI,
        url,
        '--quiet',
        '--output=json',
        `--output-path=${output}`,
        `--chrome-flags=${CHROME_FLAGS}`,
        `--only-categories=${CATEGORIES.join(',')}`,
        ...(scenario.formFactor === 'desktop' ? ['--preset=desktop'] : []),
      ],
      { env: { ...process.env, CHROME_PATH }, maxBuffer: 64 * 1024 * 1024, timeout: 180_000 },
    );
    const report = JSON.parse(readFileSync(output, 'utf8')) as any;
    if (report.runtimeError) throw new Error(`Lighthouse: ${report.runtimeError.code} ${report.runtimeError.message}`);
    const scores = Object.fromEntries(
      CATEGORIES.map((id) => [id, Math.round((report.categories[id]?.score ?? 0) * 100)]),
    ) as Record<Category, number>;
    const failing = Object.fromEntries(
      CATEGORIES.map((id) => [
        id,
        (report.categories[id]?.auditRefs ?? [])
          .filter((ref: { id: string; weight: number }) => ref.weight > 0)
          .map((ref: { id: string }) => report.audits[ref.id])
          .filter(
            (audit: { score: number | null; scoreDisplayMode: string }) =>
              audit.scoreDisplayMode !== 'notApplicable' && audit.score !== null && audit.score < 1,
          )
          .map(
            (audit: { id: string; title: string; displayValue?: string }) =>
              `${audit.id}${audit.displayValue ? ` (${audit.displayValue})` : ''}`,
          ),
      ]),
    ) as Record<Category, string[]>;
    const numeric = (id: string) => Number(report.audits[id]?.numericValue ?? Number.NaN);
    return {
      scenario,
      scores,
      metrics: {
        fcp: numeric('first-contentful-paint'),
        lcp: numeric('largest-contentful-paint'),
        tbt: numeric('total-blocking-time'),
        cls: numeric('cumulative-layout-shift'),
        si: numeric('speed-index'),
      },
      failing,
    };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

function median(results: LighthouseResult[]): LighthouseResult {
  const sorted = [...results].sort((a, b) => a.scores.performance - b.scores.performance);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Lighthouse sometimes fails to record a trace (NO_NAVSTART) on a busy machine: such a run is repeated, twice at most. */
async function lighthouseWithRetry(url: string, scenario: Scenario): Promise<LighthouseResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouseOnce(url, scenario);
    } catch (error) {
      if (attempt >= 3 || !String((error as Error).message).includes('Please run Lighthouse again')) throw error;
    }
  }
}

export async function measureLighthouse(): Promise<{ results: LighthouseResult[]; all: LighthouseResult[][] }> {
  const product = await startProduct(PORT);
  try {
    const all: LighthouseResult[][] = [];
    for (const scenario of SCENARIOS) {
      const runs: LighthouseResult[] = [];
      for (let i = 0; i < RUNS; i++)
        runs.push(await lighthouseWithRetry(`${product.baseUrl}${scenario.path}`, scenario));
      all.push(runs);
    }
    return { results: all.map(median), all };
  } finally {
    await product.stop();
  }
}

function mark(category: Category, score: number, scenario: Scenario): string {
  if (category === 'seo' && scenario.noindex) return `${score} (noindex)`;
  return score >= TARGETS[category] ? String(score) : `**${score}**`;
}

export function report(results: LighthouseResult[], all: LighthouseResult[][]): string {
  const lines = [
    `Lighthouse 12 (median of ${RUNS} by performance; targets: performance ≥ ${TARGETS.performance}, accessibility ${TARGETS.accessibility}, best practices ${TARGETS['best-practices']}, SEO ${TARGETS.seo} on indexable pages)`,
    '',
    '| Page | Form factor | Performance | Accessibility | Best practices | SEO | FCP ms | LCP ms | TBT ms | CLS | Performance of every run |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  results.forEach((result, index) => {
    const { scenario, scores, metrics } = result;
    lines.push(
      `| ${scenario.path} | ${scenario.formFactor} | ${CATEGORIES.map((c) => mark(c, scores[c], scenario)).join(' | ')} | ${Math.round(metrics.fcp)} | ${Math.round(metrics.lcp)} | ${Math.round(metrics.tbt)} | ${metrics.cls.toFixed(3)} | ${all[index]!.map((r) => r.scores.performance).join(', ')} |`,
    );
  });
  const misses = results.flatMap((result) =>
    CATEGORIES.filter((c) => !(c === 'seo' && result.scenario.noindex))
      .filter((c) => result.failing[c].length > 0)
      .map((c) => `- ${result.scenario.path} ${c}: ${result.failing[c].join(', ')}`),
  );
  if (misses.length > 0) lines.push('', 'Audits that lost points (median run):', '', ...misses);
  return lines.join('\n');
}

export default async function runBench(): Promise<string> {
  const { results, all } = await measureLighthouse();
  return report(results, all);
}

runAsScript(import.meta.url, runBench);
