import type { Point, RgbaImage } from '../../packages/skin/src/contract.ts';
import { analysePhoto } from '../../packages/skin/src/analyse.ts';
import { encodeJpeg, readImage } from '../../packages/skin/test/images.ts';
import { nodeFaceModel } from '../../packages/skin/test/node-face-model.ts';
import { faceFrame } from '../../apps/web/app/features/studio/face-frame.ts';
import type { JournalEntry, JournalTemplate } from './journal-seed.ts';

// A long journal for the web app's benchmark and screenshots: saved scans as the app writes them
// (storage.ts ScanRecord) — a real analysis of a test photo (zones with their outlines, 478
// landmarks, gate readings), a real JPEG preview of the face, the photo kept on one scan in ten —
// one a week going back from now, their scores on a seeded random walk so the trends move. Written
// into the page's IndexedDB by `seedJournal` (journal-seed.ts), in the browser.

const THUMBNAIL_MAX_SIDE = 400;
const WEEK_MS = 7 * 86_400_000;

/** The part of `image` in `frame`, scaled (nearest pixel) to at most `maxSide`. */
function crop(image: RgbaImage, frame: JournalTemplate['thumbnailFrame'], maxSide: number): RgbaImage {
  const scale = Math.min(1, maxSide / Math.max(frame.width, frame.height));
  const width = Math.max(1, Math.round(frame.width * scale));
  const height = Math.max(1, Math.round(frame.height * scale));
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const sx = Math.min(image.width - 1, Math.floor(frame.x + x / scale));
      const sy = Math.min(image.height - 1, Math.floor(frame.y + y / scale));
      data.set(image.data.subarray((sy * image.width + sx) * 4, (sy * image.width + sx) * 4 + 4), (y * width + x) * 4);
    }
  return { width, height, data };
}

/** A real saved scan of `photo` (a fixture), analysed under Node as the browser does. */
export async function journalTemplate(photo = 'face-sample3-a.jpg'): Promise<JournalTemplate> {
  const image = readImage(photo);
  const faces = await (await nodeFaceModel()).detect(image);
  const outcome = analysePhoto(image, faces, { source: 'upload' });
  if (!outcome.ok) throw new Error(`${photo} was refused`);
  const landmarks = faces[0]!.mesh.map(([x, y]) => [x, y] as Point);
  const thumbnailFrame = faceFrame(landmarks, image.width, image.height);
  const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
  return {
    analysis: outcome.analysis,
    gates: outcome.gates,
    landmarks,
    thumbnailFrame,
    thumbnail: base64(encodeJpeg(crop(image, thumbnailFrame, THUMBNAIL_MAX_SIDE), 85)),
    photo: base64(encodeJpeg(image, 90)),
  };
}

/** `count` weekly scans ending a few hours before `now`, newest last, scores on a seeded random walk. */
export function journalEntries(template: JournalTemplate, count: number, now = Date.now()): JournalEntry[] {
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const walk = (value: number) => Math.min(100, Math.max(0, value + (random() - 0.5) * 6));
  let overall = { ...template.analysis.overall };
  let zones = Object.fromEntries(template.analysis.zones.map((zone) => [zone.zone, { ...zone.metrics }]));
  const entries: JournalEntry[] = [];
  for (let index = 0; index < count; index++) {
    overall = Object.fromEntries(
      Object.entries(overall).map(([metric, value]) => [metric, walk(value)]),
    ) as typeof overall;
    zones = Object.fromEntries(
      Object.entries(zones).map(([zone, metrics]) => [
        zone,
        Object.fromEntries(Object.entries(metrics).map(([metric, value]) => [metric, walk(value as number)])),
      ]),
    );
    entries.push({
      id: `bench-${String(index).padStart(4, '0')}`,
      // Each week at a slightly different hour, as a person does.
      takenAt: new Date(
        now - (count - index) * WEEK_MS + 3 * 3_600_000 + Math.round(random() * 4 * 3_600_000),
      ).toISOString(),
      source: index % 3 === 0 ? 'camera' : 'upload',
      keepPhoto: index % 10 === 0,
      overall,
      zones,
    });
  }
  return entries;
}
