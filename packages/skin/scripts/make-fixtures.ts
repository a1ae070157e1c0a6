// Makes test/fixtures/ from the original files named in test/fixtures/LICENCE.md: single faces cut out
// of the group photos (upright, the face filling most of the frame, JPEG quality 85) and the whole
// photos re-encoded as JPEG. Run: node --import tsx packages/skin/scripts/make-fixtures.ts <originals folder>

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RgbaImage } from '../src/contract.ts';
import { resampleAffine } from '../src/image.ts';
import { decodeImage, encodeJpeg, FIXTURES_DIR } from '../test/images.ts';
import { nodeFaceModel } from '../test/node-face-model.ts';
import { cutUpright, eyeLineAngle } from './cut-upright.ts';

/** Faces to cut out: the group photo, a point near the face's centre, the fixture's name. */
const FACES = [
  { photo: 'sample3.jpg', near: [695, 475], name: 'face-sample3-a.jpg' },
  { photo: 'sample5.jpg', near: [1207, 330], name: 'face-sample5.jpg' },
  { photo: 'sample6.jpg', near: [356, 637], name: 'face-sample6-a.jpg' },
  { photo: 'sample6.jpg', near: [1264, 464], name: 'face-sample6-b.jpg' },
] as const;

/** A region of a group photo with two faces, shrunk (source rectangle, output size). */
const TWO_FACES = {
  photo: 'sample6.jpg',
  x: 1000,
  y: 150,
  size: 850,
  out: 600,
  name: 'two-faces-sample6.jpg',
} as const;

/** Whole photos kept (re-encoded as JPEG to keep the repository small). */
const WHOLE = [
  { photo: 'astronaut.png', name: 'astronaut.jpg' },
  { photo: 'chelsea.png', name: 'chelsea.jpg' },
  { photo: 'camera.png', name: 'camera.jpg' },
] as const;

async function main() {
  const from = process.argv[2];
  if (!from) throw new Error('usage: make-fixtures.ts <folder with the original files>');
  const read = (name: string): RgbaImage => decodeImage(readFileSync(path.join(from, name)), name);
  for (const { photo, name } of WHOLE) writeFileSync(path.join(FIXTURES_DIR, name), encodeJpeg(read(photo), 90));
  const two = TWO_FACES;
  const scale = two.size / two.out;
  const region = resampleAffine(read(two.photo), two.out, two.out, {
    a: scale,
    b: 0,
    c: two.x,
    d: 0,
    e: scale,
    f: two.y,
  });
  writeFileSync(path.join(FIXTURES_DIR, two.name), encodeJpeg(region, 85));
  const model = await nodeFaceModel();
  for (const { photo, near, name } of FACES) {
    const image = read(photo);
    const faces = await model.detect(image);
    const face = faces
      .map((f) => ({ f, d: Math.hypot(f.box[0] + f.box[2] / 2 - near[0], f.box[1] + f.box[3] / 2 - near[1]) }))
      .sort((p, q) => p.d - q.d)[0]?.f;
    if (!face) throw new Error(`no face in ${photo}`);
    const angle = eyeLineAngle(face);
    const size = Math.round(face.box[2] * 1.6);
    const cx = face.box[0] + face.box[2] / 2;
    const cy = face.box[1] + face.box[3] / 2 - face.box[3] * 0.05;
    const crop = cutUpright(image, cx, cy, size, angle);
    const bytes = encodeJpeg(crop, 85);
    writeFileSync(path.join(FIXTURES_DIR, name), bytes);
    console.log(
      name,
      `${size}×${size}`,
      `${Math.round(bytes.length / 1024)} KB`,
      `from ${photo}`,
      `roll ${((angle * 180) / Math.PI).toFixed(1)}°`,
    );
  }
  process.exit(0);
}

void main();
