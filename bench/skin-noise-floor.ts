import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analysePhoto, ANALYSIS_VERSION } from '../packages/skin/src/analyse.ts';
import { METRIC_IDS, ZONE_IDS, type Analysis, type MetricId, type ZoneId } from '../packages/skin/src/contract.ts';
import { readImage } from '../packages/skin/test/images.ts';
import { nodeFaceModel } from '../packages/skin/test/node-face-model.ts';
import { jitterImage, randomJitter, seededRandom } from '../packages/skin/test/variants.ts';
import { runAsScript } from './lib/run-as-script.ts';

// The skin analysis's noise floor (issue 11 §5, SKIN-APP brief §7): each test photo that passes the
// gates is re-captured with jitter — shift ±3 %, zoom ±5 %, brightness ±5 %, rotation ±3°, JPEG
// re-encode at quality 85 — and analysed again (landmarks included). A metric's floor is the 95th
// percentile of |variant − original| over every photo and variant: a change smaller than it is noise.
// Writes packages/skin/src/data/noise-floors.json (the app ships it).
// Run alone: node --import tsx bench/skin-noise-floor.ts   (SKIN_VARIANTS=<n> per photo, default 24)

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FLOORS_FILE = path.join(ROOT, 'packages/skin/src/data/noise-floors.json');
export const NOISE_PHOTOS = ['face-sample3-a.jpg', 'face-sample6-a.jpg', 'face-sample6-b.jpg'];
const VARIANTS = Number(process.env.SKIN_VARIANTS ?? 24);
const GOAL = 5;

function p95(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)]!;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

export default async function run(): Promise<string> {
  const model = await nodeFaceModel();
  const overall = Object.fromEntries(METRIC_IDS.map((m) => [m, [] as number[]])) as Record<MetricId, number[]>;
  const byZone = {} as Record<ZoneId, Partial<Record<MetricId, number[]>>>;
  for (const zone of ZONE_IDS) byZone[zone] = {};
  let refused = 0;
  let analysed = 0;
  const refusals: Record<string, number> = {};
  for (const [index, file] of NOISE_PHOTOS.entries()) {
    const image = readImage(file);
    const original = analysePhoto(image, await model.detect(image), { source: 'upload' });
    if (!original.ok) throw new Error(`${file} does not pass the gates`);
    const random = seededRandom(1000 + index);
    for (let k = 0; k < VARIANTS; k++) {
      const variant = jitterImage(image, randomJitter(random));
      const result = analysePhoto(variant, await model.detect(variant), { source: 'upload' });
      if (!result.ok) {
        refused++;
        for (const gate of result.gates)
          if (!gate.passed)
            refusals[`${gate.gate}:${gate.problem}`] = (refusals[`${gate.gate}:${gate.problem}`] ?? 0) + 1;
        continue;
      }
      analysed++;
      collect(original.analysis, result.analysis, overall, byZone);
    }
  }
  const floors = {
    about:
      'Noise floor of each metric (0–100 scale): 95th percentile of |re-capture − original| under capture jitter (bench/skin-noise-floor.ts). A change below it is "stable".',
    analysisVersion: ANALYSIS_VERSION,
    measuredOn: new Date().toISOString().slice(0, 10),
    photos: NOISE_PHOTOS.length,
    variants: analysed,
    overall: Object.fromEntries(METRIC_IDS.map((m) => [m, round1(p95(overall[m]))])),
    zones: Object.fromEntries(
      ZONE_IDS.map((zone) => [
        zone,
        Object.fromEntries(Object.entries(byZone[zone]).map(([m, values]) => [m, round1(p95(values))])),
      ]),
    ),
  };
  writeFileSync(FLOORS_FILE, JSON.stringify(floors, null, 2) + '\n');
  const lines = [
    `${NOISE_PHOTOS.length} photos × ${VARIANTS} jittered re-captures: ${analysed} analysed, ${refused} refused by the gates${
      refused
        ? ` (${Object.entries(refusals)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')})`
        : ''
    }. Floor = p95 of |variant − original|, 0–100 scale; goal ≤ ${GOAL}.`,
    '',
    `| Metric | Face-wide | ${ZONE_IDS.join(' | ')} | Goal met |`,
    `| --- | ---: | ${ZONE_IDS.map(() => '---:').join(' | ')} | --- |`,
  ];
  for (const metric of METRIC_IDS) {
    const zoneFloors = ZONE_IDS.map((zone) => floors.zones[zone]?.[metric]);
    const worst = Math.max(floors.overall[metric] ?? 0, ...zoneFloors.filter((v): v is number => v !== undefined));
    lines.push(
      `| ${metric} | ${floors.overall[metric]} | ${zoneFloors.map((v) => (v === undefined ? '–' : String(v))).join(' | ')} | ${
        worst <= GOAL ? 'yes' : `no (worst ${worst})`
      } |`,
    );
  }
  lines.push('', `Written to packages/skin/src/data/noise-floors.json (analysis ${ANALYSIS_VERSION}).`);
  return lines.join('\n');
}

function collect(
  original: Analysis,
  variant: Analysis,
  overall: Record<MetricId, number[]>,
  byZone: Record<ZoneId, Partial<Record<MetricId, number[]>>>,
): void {
  for (const metric of METRIC_IDS) overall[metric].push(Math.abs(variant.overall[metric] - original.overall[metric]));
  for (const zone of original.zones) {
    const other = variant.zones.find((z) => z.zone === zone.zone);
    if (!other) continue;
    for (const [metric, value] of Object.entries(zone.metrics) as [MetricId, number][]) {
      const second = other.metrics[metric];
      if (second === undefined) continue;
      (byZone[zone.zone][metric] ??= []).push(Math.abs(second - value));
    }
  }
}

runAsScript(import.meta.url, run);
