// The skin tone of a face as the Individual Typology Angle (ITA°), the colorimetric measure used to
// describe skin tone in dermatology: ITA = atan((L* − 50) / b*) in degrees, from > 55° (very light)
// to < −30° (dark). Read on both cheeks as the camera saw them (no colour normalisation), medians of
// their skin pixels. It describes the photo, not the person: light and camera move it. Used to report
// the validation by skin tone (docs/skin-validation.md) and to choose test photos.

import type { DetectedFace, RgbaImage } from './contract.ts';
import { imageToLab } from './colour.ts';
import { resampleAffine } from './image.ts';
import { median, valuesIn } from './metrics.ts';
import { faceCrop, zoneMasks } from './zones.ts';

export interface SkinTone {
  /** Individual Typology Angle, degrees. */
  readonly ita: number;
  /** Median L* and b* of the cheeks. */
  readonly L: number;
  readonly b: number;
}

/** The usual ITA categories (Chardon et al. 1991, extended to "dark" below −30°). */
export const ITA_CATEGORIES = [
  { name: 'very light', from: 55 },
  { name: 'light', from: 41 },
  { name: 'intermediate', from: 28 },
  { name: 'tan', from: 10 },
  { name: 'brown', from: -30 },
  { name: 'dark', from: -Infinity },
] as const;

export function itaCategory(ita: number): (typeof ITA_CATEGORIES)[number]['name'] {
  return ITA_CATEGORIES.find((category) => ita >= category.from)!.name;
}

export function ita(L: number, b: number): number {
  return (Math.atan2(L - 50, b) * 180) / Math.PI;
}

export function cheekTone(image: RgbaImage, face: DetectedFace): SkinTone {
  const crop = faceCrop(face, 2);
  const lab = imageToLab(resampleAffine(image, crop.width, crop.height, crop.toSource));
  const masks = zoneMasks(crop);
  const cheeks = new Uint8Array(masks.leftCheek.length);
  for (let i = 0; i < cheeks.length; i++) cheeks[i] = masks.leftCheek[i]! | masks.rightCheek[i]!;
  const L = median(valuesIn(lab.L, cheeks));
  const b = median(valuesIn(lab.b, cheeks));
  return { ita: ita(L, b), L, b };
}
