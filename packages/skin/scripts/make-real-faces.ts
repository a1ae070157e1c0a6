// Makes test/faces/ — the real faces of the validation (docs/skin-validation.md) — from the CC0
// portraits of the public repository cjdowner/interfaces (version 1.4, folder "1000 x 1000"): each
// chosen portrait cut around its face, turned upright by its eye line, at the photo's own resolution,
// JPEG quality 85; and test/faces/faces.json, the manifest the tests and benchmarks read (source,
// credit, licence, the skin tone as ITA°, and whether the photo is for tuning or kept apart for judging).
// Run: node --import tsx packages/skin/scripts/make-real-faces.ts <folder holding 1000 x 1000/ and CREDITS.md>

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cheekTone } from '../src/tone.ts';
import { decodeImage, encodeJpeg } from '../test/images.ts';
import { nodeFaceModel } from '../test/node-face-model.ts';
import { cutUpright, eyeLineAngle } from './cut-upright.ts';
import { FACES_DIR, type RealFace } from '../test/real-faces.ts';

/**
 * The portraits kept: one frontal face (the model's |yaw| ≤ 12°), eyes visible, no glasses, nothing
 * over the face, chosen across skin tones; every other frontal portrait of the collection with its
 * reason for being left out is listed in test/faces/LICENCE.md. Alternate photos of each tone band go
 * to tuning and to judging ("held-out"), so both sets span the tones.
 */
export const CHOSEN: Record<string, RealFace['set']> = {
  '005': 'tuning',
  '006': 'tuning',
  '009': 'tuning',
  '011': 'tuning',
  '022': 'held-out',
  '025': 'tuning',
  '028': 'held-out',
  '033': 'held-out',
  '035': 'tuning',
  '036': 'held-out',
  '037': 'tuning',
  '042': 'held-out',
  '044': 'tuning',
  '047': 'tuning',
  '049': 'tuning',
  '051': 'tuning',
  '054': 'held-out',
  '057': 'held-out',
  '060': 'tuning',
  '061': 'tuning',
  '066': 'held-out',
  '068': 'held-out',
  '071': 'tuning',
  '072': 'tuning',
  '073': 'held-out',
  '076': 'tuning',
  '077': 'tuning',
  '078': 'held-out',
  '080': 'tuning',
  '083': 'held-out',
  '084': 'tuning',
  '087': 'held-out',
  '088': 'tuning',
  '089': 'held-out',
  '090': 'held-out',
  '097': 'tuning',
  '098': 'held-out',
  '100': 'tuning',
};

/** The face's box grown by this factor gives the cut (clipped to the portrait). */
const CUT_FACTOR = 1.8;

async function main() {
  const from = process.argv[2];
  if (!from) throw new Error('usage: make-real-faces.ts <folder of cjdowner/interfaces>');
  const credits = new Map<string, string>();
  for (const [, number, url] of readFileSync(path.join(from, 'CREDITS.md'), 'utf8').matchAll(
    /\[(\d{3})\.jpg\]\((\S+)\)/g,
  ))
    credits.set(number!, url!);
  const model = await nodeFaceModel();
  const manifest: RealFace[] = [];
  for (const [number, set] of Object.entries(CHOSEN)) {
    const name = `${number}.jpg`;
    const image = decodeImage(readFileSync(path.join(from, '1000 x 1000', name)), name);
    const faces = await model.detect(image);
    if (faces.length !== 1) throw new Error(`${name}: ${faces.length} faces`);
    const face = faces[0]!;
    const angle = eyeLineAngle(face);
    const cx = face.box[0] + face.box[2] / 2;
    const cy = face.box[1] + face.box[3] / 2;
    // The largest square up to CUT_FACTOR × the box that stays inside the portrait once turned.
    const reach =
      Math.min(cx, cy, image.width - cx, image.height - cy) / (Math.abs(Math.cos(angle)) + Math.abs(Math.sin(angle)));
    const size = 2 * Math.floor(Math.min((face.box[2] * CUT_FACTOR) / 2, reach));
    const cut = cutUpright(image, cx, cy, size, angle);
    const file = `face-${number}.jpg`;
    const bytes = encodeJpeg(cut, 85);
    writeFileSync(path.join(FACES_DIR, file), bytes);
    const [cutFace] = await model.detect(cut);
    if (!cutFace) throw new Error(`${file}: no face after the cut`);
    const tone = cheekTone(cut, cutFace);
    manifest.push({
      file,
      source: `cjdowner/interfaces 1.4, "1000 x 1000/${name}"`,
      credit: credits.get(number) ?? '',
      licence: 'CC0-1.0',
      ita: Math.round(tone.ita * 10) / 10,
      set,
    });
    console.log(file, `${size}×${size}`, `${Math.round(bytes.length / 1024)} KB`, `ITA ${tone.ita.toFixed(1)}°`, set);
  }
  manifest.sort((x, y) => x.file.localeCompare(y.file));
  writeFileSync(path.join(FACES_DIR, 'faces.json'), JSON.stringify(manifest, null, 2) + '\n');
  process.exit(0);
}

void main();
