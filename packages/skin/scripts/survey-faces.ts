// Surveys a folder of portraits with the face model and the gates: one line per photo with the pose,
// the scale, the skin tone of the cheeks (ITA°) and what the gates say. Used to choose the real faces of
// test/faces/ (see test/faces/LICENCE.md). Run: node --import tsx packages/skin/scripts/survey-faces.ts <folder>

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { analysePhoto } from '../src/analyse.ts';
import { cheekTone } from '../src/tone.ts';
import { decodeImage } from '../test/images.ts';
import { nodeFaceModel } from '../test/node-face-model.ts';

async function main() {
  const folder = process.argv[2];
  if (!folder) throw new Error('usage: survey-faces.ts <folder of portraits>');
  const model = await nodeFaceModel();
  const files = readdirSync(folder)
    .filter((f) => /\.(jpe?g|png)$/i.test(f))
    .sort();
  console.log(['file', 'faces', 'score', 'yaw', 'pitch', 'roll', 'pxPerMm', 'ita', 'L', 'failing'].join('\t'));
  for (const file of files) {
    const image = decodeImage(readFileSync(path.join(folder, file)), file);
    const faces = await model.detect(image);
    const outcome = analysePhoto(image, faces, { source: 'upload' });
    const face = faces[0];
    const tone = face ? cheekTone(image, face) : null;
    const failing = outcome.gates.filter((g) => !g.passed).map((g) => `${g.gate}:${g.problem}(${g.value})`);
    const f1 = (v: number | undefined) => (v === undefined ? '' : v.toFixed(1));
    console.log(
      [
        file,
        faces.length,
        f1(face?.score),
        f1(face?.rotation.yaw),
        f1(face?.rotation.pitch),
        f1(face?.rotation.roll),
        outcome.ok ? outcome.analysis.pxPerMm.toFixed(2) : '',
        f1(tone?.ita),
        f1(tone?.L),
        failing.join(' '),
      ].join('\t'),
    );
  }
}

void main();
