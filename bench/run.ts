import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// `npm run bench`: every benchmark of docs/benchmarks.md, one after the other (they share the
// machine's two cores, so never in parallel). Each module exports `default async function run():
// Promise<string>` answering its markdown figures. A benchmark that fails is reported and the
// others still run; the exit code says whether all of them ran.

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));

const BENCHMARKS = [
  { title: 'JavaScript weight', file: 'js-weight.ts' },
  { title: 'Lighthouse', file: 'lighthouse.bench.ts' },
  { title: 'Click recording', file: 'clicks.bench.ts' },
  { title: 'Dashboard statistics', file: 'stats.bench.ts' },
  { title: 'Dashboard money totals: the ledger against the rows', file: 'ledger-totals.bench.ts' },
  { title: 'Dashboard totals: the statement and the writes', file: 'dashboard-totals.bench.ts' },
  { title: 'RevenueCat webhook ingestion', file: 'webhook.bench.ts' },
  { title: 'Outgoing webhooks: a burst of 10,000 events', file: 'outgoing-webhooks.bench.ts' },
  { title: 'Monthly payout job', file: 'payouts.bench.ts' },
  { title: 'Skin analysis time', file: 'skin-analysis-time.ts' },
  { title: 'Web app in the browser', file: 'skin-browser.bench.ts' },
  { title: 'Skin analysis noise floor', file: 'skin-noise-floor.ts' },
  { title: 'Skin analysis validation', file: 'skin-validation.ts' },
  { title: 'Your data: export and import', file: 'studio-data.bench.ts' },
  { title: 'Web app journal with 200 scans', file: 'studio-journal.bench.ts' },
  { title: 'Web app layout shift', file: 'studio-layout-shift.bench.ts' },
  { title: 'Soak: mixed traffic over time', file: 'soak.bench.ts' },
];

async function main() {
  const only = process.argv.slice(2);
  let failed = 0;
  for (const bench of BENCHMARKS) {
    if (only.length > 0 && !only.some((name) => bench.file.startsWith(name))) continue;
    const file = path.join(BENCH_DIR, bench.file);
    console.log(`\n## ${bench.title} (bench/${bench.file})\n`);
    if (!existsSync(file)) {
      console.log(`(skipped: bench/${bench.file} does not exist yet)`);
      continue;
    }
    const started = Date.now();
    try {
      const module = (await import(pathToFileURL(file).href)) as { default?: () => Promise<string> };
      if (typeof module.default !== 'function')
        throw new Error(`bench/${bench.file} has no default export run(): Promise<string>`);
      console.log(await module.default());
      console.log(`\n(${((Date.now() - started) / 1000).toFixed(0)} s)`);
    } catch (error) {
      failed++;
      console.error(`bench/${bench.file} failed:`, error);
    }
  }
  process.exit(failed === 0 ? 0 : 1);
}

void main();
