import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analysePhoto, ANALYSIS_VERSION } from '../packages/skin/src/analyse.ts';
import { METRIC_IDS, ZONE_IDS, type Analysis, type MetricId, type RgbaImage } from '../packages/skin/src/contract.ts';
import { readImage } from '../packages/skin/test/images.ts';
import { nodeFaceModel, type NodeFaceModel } from '../packages/skin/test/node-face-model.ts';
import { REAL_FACES, realFacePath } from '../packages/skin/test/real-faces.ts';
import { captureJitterImage, randomCaptureJitter } from '../packages/skin/test/phantoms.ts';
import { seededRandom } from '../packages/skin/test/variants.ts';
import { runAsScript } from './lib/run-as-script.ts';

// The skin analysis's noise floors (docs/skin-analysis.md §Noise floor). Each tuning photo the gates
// accept is re-captured with jitter — framing (shift ±3 %, zoom ±5 %, rotation ±3°), light (exposure
// ±10 % and white balance ±4 % in linear light), camera (sensor noise σ 0–2, JPEG 70–90 with 4:2:0
// chroma) — and analysed again, landmarks included. A cell's floor (one metric in one zone, or face-wide)
// is the largest over the photos of each photo's 95th percentile of |re-capture − original|, never
// below 1 point. The floors are then checked on the held-out photos with other seeds: the share of
// cells within 1.2 × the floor. Writes packages/skin/src/data/noise-floors.json (the app ships it).
// Run alone: node --import tsx bench/skin-noise-floor.ts   (SKIN_VARIANTS=<n> per photo, default 48)

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FLOORS_FILE = path.join(ROOT, 'packages/skin/src/data/noise-floors.json');
/** The first fixtures (test/fixtures), tuned on since the beginning. */
const FIXTURE_PHOTOS = ['face-sample3-a.jpg', 'face-sample6-a.jpg', 'face-sample6-b.jpg'];
const VARIANTS = Number(process.env.SKIN_VARIANTS ?? 48);
const CHECK_VARIANTS = Math.max(8, Math.round(VARIANTS / 2));
export const MIN_FLOOR = 1;
const CHECK_FACTOR = 1.2;

/** "overall" or a zone, then the metric. */
type Cell = `${string}/${MetricId}`;

function cells(analysis: Analysis): Map<Cell, number> {
  const out = new Map<Cell, number>();
  for (const metric of METRIC_IDS) out.set(`overall/${metric}`, analysis.overall[metric]);
  for (const zone of analysis.zones)
    for (const [metric, value] of Object.entries(zone.metrics) as [MetricId, number][])
      out.set(`${zone.zone}/${metric}`, value);
  return out;
}

function p95(values: readonly number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)]!;
}

const ceil1 = (value: number) => Math.ceil(value * 10 - 1e-9) / 10;

interface PhotoRun {
  readonly name: string;
  /** |re-capture − original| per cell. */
  readonly changes: Map<Cell, number[]>;
  readonly analysed: number;
  readonly refusals: Map<string, number>;
}

async function recapture(model: NodeFaceModel, name: string, image: RgbaImage, variants: number, seed: number) {
  const original = analysePhoto(image, await model.detect(image), { source: 'upload' });
  if (!original.ok) return null;
  const before = cells(original.analysis);
  const changes = new Map<Cell, number[]>();
  const refusals = new Map<string, number>();
  const random = seededRandom(seed);
  let analysed = 0;
  for (let k = 0; k < variants; k++) {
    const copy = captureJitterImage(image, randomCaptureJitter(random));
    const result = analysePhoto(copy, await model.detect(copy), { source: 'upload' });
    if (!result.ok) {
      for (const gate of result.gates.filter((g) => !g.passed && g.problem))
        refusals.set(gate.problem!, (refusals.get(gate.problem!) ?? 0) + 1);
      continue;
    }
    analysed++;
    for (const [cell, value] of cells(result.analysis)) {
      const first = before.get(cell);
      if (first === undefined) continue;
      let list = changes.get(cell);
      if (!list) changes.set(cell, (list = []));
      list.push(Math.abs(value - first));
    }
  }
  return { name, changes, analysed, refusals } satisfies PhotoRun;
}

export default async function run(): Promise<string> {
  const model = await nodeFaceModel();
  const tuning = [
    ...FIXTURE_PHOTOS.map((file) => ({ name: file, image: readImage(file) })),
    ...REAL_FACES.filter((face) => face.set === 'tuning').map((face) => ({
      name: face.file,
      image: readImage(realFacePath(face)),
    })),
  ];
  const runs: PhotoRun[] = [];
  const refusedOriginals: string[] = [];
  for (const [index, photo] of tuning.entries()) {
    const result = await recapture(model, photo.name, photo.image, VARIANTS, 1000 + index);
    if (result) runs.push(result);
    else refusedOriginals.push(photo.name);
  }
  const floors = new Map<Cell, number>();
  const worstPhoto = new Map<Cell, string>();
  for (const photo of runs) {
    if (photo.analysed < VARIANTS / 2) continue;
    for (const [cell, values] of photo.changes) {
      const value = p95(values);
      if (value >= (floors.get(cell) ?? -1)) {
        floors.set(cell, value);
        worstPhoto.set(cell, photo.name);
      }
    }
  }
  const floorOf = (cell: Cell) => Math.max(MIN_FLOOR, ceil1(floors.get(cell) ?? 0));
  // The check: held-out photos, other seeds.
  let within = 0;
  let total = 0;
  const heldOut: string[] = [];
  const outside = new Map<Cell, number>();
  for (const [index, face] of REAL_FACES.filter((f) => f.set === 'held-out').entries()) {
    const result = await recapture(model, face.file, readImage(realFacePath(face)), CHECK_VARIANTS, 5000 + index);
    if (!result) continue;
    heldOut.push(face.file);
    for (const [cell, values] of result.changes)
      for (const value of values) {
        total++;
        if (value <= CHECK_FACTOR * floorOf(cell) + 1e-9) within++;
        else outside.set(cell, (outside.get(cell) ?? 0) + 1);
      }
  }
  const json = {
    about:
      'Noise floor of each metric (0–100 scale): the largest over the tuning photos of each photo\'s 95th percentile of |re-capture − original| under capture jitter, never below 1 (bench/skin-noise-floor.ts). A change below it is "stable".',
    analysisVersion: ANALYSIS_VERSION,
    measuredOn: new Date().toISOString().slice(0, 10),
    photos: runs.length,
    variantsPerPhoto: VARIANTS,
    overall: Object.fromEntries(METRIC_IDS.map((m) => [m, floorOf(`overall/${m}`)])),
    zones: Object.fromEntries(
      ZONE_IDS.map((zone) => [
        zone,
        Object.fromEntries(
          METRIC_IDS.filter((m) => floors.has(`${zone}/${m}`)).map((m) => [m, floorOf(`${zone}/${m}`)]),
        ),
      ]),
    ),
  };
  writeFileSync(FLOORS_FILE, JSON.stringify(json, null, 2) + '\n');
  const analysed = runs.reduce((sum, r) => sum + r.analysed, 0);
  const refusals = new Map<string, number>();
  for (const r of runs) for (const [k, v] of r.refusals) refusals.set(k, (refusals.get(k) ?? 0) + v);
  const row = (label: string, cell: (m: MetricId) => Cell | null) =>
    `| ${label} | ${METRIC_IDS.map((m) => {
      const c = cell(m);
      return c && floors.has(c) ? floorOf(c).toFixed(1) : '–';
    }).join(' | ')} |`;
  const lines = [
    `Tuning: ${runs.length} photos the gates accept (${FIXTURE_PHOTOS.length} first fixtures and ${runs.length - FIXTURE_PHOTOS.length} real faces marked "tuning") × ${VARIANTS} re-captures: ${analysed} analysed, ${VARIANTS * runs.length - analysed} refused by the gates${
      refusals.size ? ` (${[...refusals].map(([k, v]) => `${k} ${v}`).join(', ')})` : ''
    }${refusedOriginals.length ? `; refused as taken, so not used: ${refusedOriginals.join(', ')}` : ''}.`,
    '',
    `| Place | ${METRIC_IDS.join(' | ')} |`,
    `| --- | ${METRIC_IDS.map(() => '---:').join(' | ')} |`,
    row('face-wide', (m) => `overall/${m}`),
    ...ZONE_IDS.map((zone) => row(zone, (m) => `${zone}/${m}`)),
    '',
    `Check on ${heldOut.length} held-out photos × ${CHECK_VARIANTS} re-captures with other seeds: ${((100 * within) / Math.max(1, total)).toFixed(1)} % of ${total} cell readings within ${CHECK_FACTOR} × their floor (goal ≥ 95 %).${
      outside.size
        ? ` Most often beyond: ${[...outside]
            .sort((a, b) => b[1] - a[1])
            .slice(0, 6)
            .map(([c, v]) => `${c} ${v}`)
            .join(', ')}.`
        : ''
    }`,
    `Worst photo per floor: ${[...worstPhoto]
      .filter(([c]) => c.startsWith('overall/'))
      .map(([c, p]) => `${c.slice(8)} ${p}`)
      .join(', ')}.`,
    '',
    `Written to packages/skin/src/data/noise-floors.json (analysis ${ANALYSIS_VERSION}).`,
  ];
  return lines.join('\n');
}

runAsScript(import.meta.url, run);
