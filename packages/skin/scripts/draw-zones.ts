// Draws the zones over a fixture (each zone tinted, outlines in white) for docs/skin-analysis.md.
// Run: node --import tsx packages/skin/scripts/draw-zones.ts face-sample6-a.jpg docs/skin-zones.png

import { writeFileSync } from 'node:fs';
import { ZONE_IDS, type RgbaImage, type ZoneId } from '../src/contract.ts';
import { resampleAffine } from '../src/image.ts';
import { faceCrop, zoneMasks } from '../src/zones.ts';
import { encodePng, readImage } from '../test/images.ts';
import { nodeFaceModel } from '../test/node-face-model.ts';

const COLOURS: Record<ZoneId, [number, number, number]> = {
  forehead: [255, 200, 0],
  leftCheek: [0, 200, 255],
  rightCheek: [0, 120, 255],
  eyeArea: [200, 0, 255],
  nose: [0, 230, 100],
  chin: [255, 90, 0],
  lipContour: [255, 0, 140],
};

async function main() {
  const [input = 'astronaut.png', output = 'zones.png'] = process.argv.slice(2);
  const image = readImage(input);
  const [face] = await (await nodeFaceModel()).detect(image);
  if (!face) throw new Error('no face');
  // The face upright at 3 px/mm, each zone tinted.
  const crop = faceCrop(face, 3);
  const masks = zoneMasks(crop);
  const out: RgbaImage = resampleAffine(image, crop.width, crop.height, crop.toSource);
  for (let i = 0; i < crop.width * crop.height; i++) {
    const zone = ZONE_IDS.find((z) => masks[z][i]);
    if (!zone) continue;
    for (let c = 0; c < 3; c++) out.data[i * 4 + c] = Math.round(out.data[i * 4 + c]! * 0.5 + COLOURS[zone][c]! * 0.5);
  }
  writeFileSync(output, encodePng(out));
  console.log('wrote', output);
  process.exit(0);
}

void main();
