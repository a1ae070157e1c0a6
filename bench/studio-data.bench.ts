import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { type Page, chromium } from '@playwright/test';
import { analysePhoto } from '../packages/skin/src/analyse.ts';
import { FIXTURES_DIR, readImage } from '../packages/skin/test/images.ts';
import { nodeFaceModel } from '../packages/skin/test/node-face-model.ts';
import { startProduct } from './lib/product-server.ts';
import { runAsScript } from './lib/run-as-script.ts';

// "Your data" with a long history (docs/benchmarks.md#your-data-export-and-import): export and import of 200 scans, 20 of them
// with their photo, in headless Chromium against the built product, through the page itself (the
// buttons a visitor presses). The scans are real: the analysis, gates, zone outlines and 478
// landmarks of a fixture selfie computed once under Node, each scan's scores moved a little; previews
// and photos are JPEGs the browser encodes at the app's sizes and qualities (preview: the face, 400 px,
// quality 0.85; photo: 960 × 1280, quality 0.9) from that selfie enlarged with a little sensor-like
// noise, so that their bytes weigh what a phone's would. The page records its own timings
// (`studio-export`, `studio-import-read`, `studio-import-write` performance measures).
// Run alone: node --import tsx bench/studio-data.bench.ts   (after `npm run build`)
//   STUDIO_DATA_ROUNDS (default 5), STUDIO_DATA_PORT (default 3108), WEB_BUILD_DIR, CHROMIUM_PATH.

const PORT = Number(process.env.STUDIO_DATA_PORT ?? 3108);
const ROUNDS = Math.max(1, Number(process.env.STUDIO_DATA_ROUNDS ?? 5));
const SCANS = 200;
const PHOTOS = 20;
const FIXTURE = 'face-sample3-a.jpg';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'];

/** One real analysis of the fixture selfie (what a saved scan holds besides its images). */
async function realScan() {
  const image = readImage(FIXTURE);
  const faces = await (await nodeFaceModel()).detect(image);
  const outcome = analysePhoto(image, faces, { source: 'camera' });
  if (!outcome.ok || faces.length !== 1) throw new Error(`${FIXTURE} was refused`);
  const landmarks = faces[0]!.mesh.map(([x, y]) => [x, y]);
  const xs = landmarks.map(([x]) => x!);
  const ys = landmarks.map(([, y]) => y!);
  return {
    analysis: outcome.analysis,
    gates: outcome.gates,
    landmarks,
    face: {
      x: Math.min(...xs),
      y: Math.min(...ys),
      width: Math.max(...xs) - Math.min(...xs),
      height: Math.max(...ys) - Math.min(...ys),
    },
    size: { width: image.width, height: image.height },
  };
}

/** Writes 200 scans (20 with a photo) straight into the app's database, after the app created it. */
async function seedScans(page: Page, scan: Awaited<ReturnType<typeof realScan>>) {
  const fixture = readFileSync(path.join(FIXTURES_DIR, FIXTURE)).toString('base64');
  return page.evaluate(
    async ({ fixture, scan, scans, photos }) => {
      const bytes = Uint8Array.from(atob(fixture), (char) => char.charCodeAt(0));
      const source = await createImageBitmap(new Blob([bytes], { type: 'image/jpeg' }));
      // The selfie as a phone's photo: 960 × 1280, with a little noise so that JPEG finds real detail.
      const photoCanvas = new OffscreenCanvas(960, 1280);
      const context = photoCanvas.getContext('2d')!;
      const scale = 1280 / source.height;
      const offsetX = (960 - source.width * scale) / 2;
      const toJpeg = (canvas: OffscreenCanvas, quality: number) =>
        canvas.convertToBlob({ type: 'image/jpeg', quality });
      const frame = {
        x: offsetX + scan.face.x * scale,
        y: scan.face.y * scale,
        width: scan.face.width * scale,
        height: scan.face.height * scale,
      };
      let seed = 1;
      const noise = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648 - 0.5) * 12;
      const sizes = { thumbnails: 0, photos: 0 };
      const records = [];
      for (let index = 0; index < scans; index++) {
        context.filter = `brightness(${0.94 + (index % 13) * 0.01})`;
        context.drawImage(
          source,
          offsetX + (index % 5) - 2,
          (index % 7) - 3,
          source.width * scale,
          source.height * scale,
        );
        const pixels = context.getImageData(0, 0, 960, 1280);
        const data = pixels.data;
        for (let i = 0; i < data.length; i += 4) {
          const n = noise();
          for (let channel = i; channel < i + 3; channel++) data[channel] = data[channel]! + n;
        }
        context.putImageData(pixels, 0, 0);
        const thumbCanvas = new OffscreenCanvas(400, Math.round((400 * frame.height) / frame.width));
        thumbCanvas
          .getContext('2d')!
          .drawImage(
            photoCanvas,
            frame.x,
            frame.y,
            frame.width,
            frame.height,
            0,
            0,
            thumbCanvas.width,
            thumbCanvas.height,
          );
        const thumbnail = await toJpeg(thumbCanvas, 0.85);
        const photo = index % (scans / photos) === 0 ? await toJpeg(photoCanvas, 0.9) : undefined;
        sizes.thumbnails += thumbnail.size;
        sizes.photos += photo?.size ?? 0;
        const shift = (value: number) => Math.min(100, Math.max(0, value + ((index * 7) % 11) - 5));
        records.push({
          id: crypto.randomUUID(),
          takenAt: new Date(Date.UTC(2026, 10, 25) - index * 7 * 86_400_000).toISOString(),
          source: index % 3 === 0 ? 'upload' : 'camera',
          analysisVersion: scan.analysis.version,
          modelVersion: 'human-3.3.6',
          gates: scan.gates,
          analysis: {
            ...scan.analysis,
            zones: scan.analysis.zones.map((zone: { metrics: Record<string, number> }) => ({
              ...zone,
              metrics: Object.fromEntries(Object.entries(zone.metrics).map(([id, value]) => [id, shift(value)])),
            })),
            overall: Object.fromEntries(
              Object.entries(scan.analysis.overall).map(([id, value]) => [id, shift(value as number)]),
            ),
          },
          landmarks: scan.landmarks,
          thumbnail,
          thumbnailFrame: frame,
          ...(photo ? { photo } : {}),
        });
      }
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('skanova-studio');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const tx = db.transaction('scans', 'readwrite');
      for (const record of records) tx.objectStore('scans').put(record);
      await new Promise((resolve, reject) => {
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error);
      });
      db.close();
      return sizes;
    },
    { fixture, scan, scans: SCANS, photos: PHOTOS },
  );
}

async function consent(page: Page) {
  await page.getByRole('checkbox', { name: 'I am 13 years old or older.' }).check();
  await page.getByRole('checkbox', { name: /^I agree that photos of my face/ }).check();
  await page.getByRole('button', { name: 'Agree and continue' }).click();
  await page.getByRole('heading', { level: 1, name: 'Your skin, analysed on your device' }).waitFor();
}

/** The page's latest measure of that name, in ms, then cleared. */
async function measure(page: Page, name: string): Promise<number> {
  return page.evaluate((name) => {
    const entry = performance.getEntriesByName(name).at(-1);
    performance.clearMeasures(name);
    if (!entry) throw new Error(`no ${name} measure`);
    return entry.duration;
  }, name);
}

function stats(values: number[]) {
  const sorted = values.toSorted((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  return { median, min: sorted[0]!, max: sorted.at(-1)! };
}

export default async function run(): Promise<string> {
  const scan = await realScan();
  const product = await startProduct(PORT);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  const downloads = mkdtempSync(path.join(tmpdir(), 'studio-data-export-'));
  try {
    const context = await browser.newContext({ locale: 'en-GB', acceptDownloads: true });
    await context.addCookies([
      { name: 'consent', value: 'denied', url: product.baseUrl },
      { name: 'lang', value: 'en', url: product.baseUrl },
    ]);
    // tsx names the functions this file passes to the page with a helper of its own: give the page one.
    await context.addInitScript('globalThis.__name = (target) => target;');
    const page = await context.newPage();
    await page.goto(`${product.baseUrl}/studio`);
    await consent(page);
    const sizes = await seedScans(page, scan);
    await page.goto(`${product.baseUrl}/studio/data`);
    await page.getByText(`${SCANS} saved scans`).waitFor();

    const exportMs: number[] = [];
    const readMs: number[] = [];
    const writeMs: number[] = [];
    let file = '';
    for (let round = 0; round < ROUNDS; round++) {
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export my data' }).click();
      const download = await downloading;
      file = path.join(downloads, `export-${round}.json`);
      await download.saveAs(file);
      await page.getByText(/has been saved to your downloads/).waitFor();
      exportMs.push(await measure(page, 'studio-export'));
    }
    for (let round = 0; round < ROUNDS; round++) {
      // Another device each time: everything deleted, consent given again, then the file imported.
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Delete everything' }).click();
      await page.getByRole('link', { name: "Go to the app's home" }).click();
      await consent(page);
      await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Your data' }).click();
      await page.getByLabel('Choose an export file').setInputFiles(file);
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await page.getByText(`Import complete: ${SCANS} scans added.`).waitFor({ timeout: 120_000 });
      readMs.push(await measure(page, 'studio-import-read'));
      writeMs.push(await measure(page, 'studio-import-write'));
      await page.getByText(`${SCANS} saved scans`).waitFor();
    }
    const bytes = statSync(file).size;
    const kib = (value: number) => `${(value / 1024).toFixed(0)} KiB`;
    const row = (name: string, values: number[]) => {
      const { median, min, max } = stats(values);
      return `| ${name} | ${median.toFixed(0)} | ${min.toFixed(0)} | ${max.toFixed(0)} |`;
    };
    const total = readMs.map((value, index) => value + writeMs[index]!);
    const version = browser.version();
    return [
      `${SCANS} scans (${PHOTOS} with their photo), ${ROUNDS} rounds; headless Chromium ${version}; load average ${loadavg()[0]!.toFixed(1)} at the end.`,
      '',
      '| Step | median (ms) | min (ms) | max (ms) |',
      '| --- | ---: | ---: | ---: |',
      row('Export: read the database, encode, build the file', exportMs),
      row('Import: read and check the whole file (JSON, schema, images)', readMs),
      row('Import: write it in one transaction', writeMs),
      row('Import: total', total),
      '',
      `File: ${(bytes / 1_048_576).toFixed(1)} MiB (${bytes.toLocaleString('en')} bytes) — previews ${kib(sizes.thumbnails)} in all (${kib(sizes.thumbnails / SCANS)} each), photos ${kib(sizes.photos)} in all (${kib(sizes.photos / PHOTOS)} each), as base64 in the JSON.`,
    ].join('\n');
  } finally {
    await browser.close();
    await product.stop();
    rmSync(downloads, { recursive: true, force: true });
  }
}

runAsScript(import.meta.url, run);
