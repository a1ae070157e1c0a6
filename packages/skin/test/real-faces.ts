// The real faces of the validation (test/faces/, made by scripts/make-real-faces.ts; sources and
// licences in test/faces/LICENCE.md): portraits of people of many skin tones, each with its skin tone
// (ITA°) and its set — "tuning" photos may be used to choose a metric's constants and to compute the
// noise floors; "held-out" photos only to judge them.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import manifest from './faces/faces.json' with { type: 'json' };

export const FACES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'faces');

export interface RealFace {
  /** File name in test/faces/. */
  readonly file: string;
  readonly source: string;
  /** The original photograph's page. */
  readonly credit: string;
  readonly licence: 'CC0-1.0';
  /** Individual Typology Angle of the cheeks in this photo (src/tone.ts). */
  readonly ita: number;
  readonly set: 'tuning' | 'held-out';
}

export const REAL_FACES: readonly RealFace[] = manifest as RealFace[];

/** The path of a real face, for `readImage`. */
export const realFacePath = (face: RealFace): string => path.join(FACES_DIR, face.file);
