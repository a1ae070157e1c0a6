import { analysePhoto, checkGates } from '../packages/skin/src/analyse.ts';
import { readImage } from '../packages/skin/test/images.ts';
import { nodeFaceModel } from '../packages/skin/test/node-face-model.ts';
import { runAsScript } from './lib/run-as-script.ts';

// Warm analysis time per photo under Node (docs/benchmarks.md#skin-analysis): the face model (human's Node WASM
// build: detector, mesh, iris) then the analysis (gates, zones, every metric), on the test photos
// that pass the gates, after a warm-up. The browser's figure (headless Chromium, WASM) is the web
// app's benchmark; this one isolates the analysis code.
// Run alone: node --import tsx bench/skin-analysis-time.ts   (SKIN_RUNS=<n> per photo, default 20)

const PHOTOS = ['face-sample3-a.jpg', 'face-sample6-a.jpg', 'face-sample6-b.jpg'];
const RUNS = Number(process.env.SKIN_RUNS ?? 20);
const WARMUP = 3;

function percentile(values: number[], p: number): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

export default async function run(): Promise<string> {
  const model = await nodeFaceModel();
  const landmarks: number[] = [];
  const analysis: number[] = [];
  const analysisCpu: number[] = [];
  const gates: number[] = [];
  const total: number[] = [];
  const sizes: string[] = [];
  for (const file of PHOTOS) {
    const image = readImage(file);
    sizes.push(`${image.width}×${image.height}`);
    for (let k = 0; k < WARMUP + RUNS; k++) {
      const t0 = performance.now();
      const faces = await model.detect(image);
      const t1 = performance.now();
      const cpu = process.cpuUsage();
      const outcome = analysePhoto(image, faces, { source: 'upload' });
      const cpuUsed = process.cpuUsage(cpu);
      const t2 = performance.now();
      checkGates(image, faces, { source: 'camera' });
      const t3 = performance.now();
      if (!outcome.ok) throw new Error(`${file} was refused`);
      if (k < WARMUP) continue;
      landmarks.push(t1 - t0);
      analysis.push(t2 - t1);
      analysisCpu.push((cpuUsed.user + cpuUsed.system) / 1000);
      gates.push(t3 - t2);
      total.push(t2 - t0);
    }
  }
  const row = (name: string, values: number[]) =>
    `| ${name} | ${percentile(values, 50).toFixed(1)} | ${percentile(values, 95).toFixed(1)} |`;
  const load = (await import('node:os')).loadavg()[0]!.toFixed(1);
  return [
    `${PHOTOS.length} photos (${sizes.join(', ')}), ${RUNS} warm runs each after ${WARMUP} warm-up runs; Node ${process.version}, WASM backend; load average ${load} at the end.`,
    '',
    '| Step | p50 (ms) | p95 (ms) |',
    '| --- | ---: | ---: |',
    row('Landmarks (detector + mesh + iris)', landmarks),
    row('Analysis (gates + zones + metrics)', analysis),
    row('Analysis, CPU time of this process (less sensitive to other load)', analysisCpu),
    row('Gates alone (checkGates, per video frame)', gates),
    row('Total per photo', total),
  ].join('\n');
}

runAsScript(import.meta.url, run);
