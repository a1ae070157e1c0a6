import { type Analysis, type CaptureConditions, type MetricId, ZONE_IDS, type ZoneId } from '@skanova/skin/contract';
import en from '../i18n/en/studio.json' with { type: 'json' };
import fr from '../i18n/fr/studio.json' with { type: 'json' };
import type { ConsultationProfile } from './profile.ts';
import type { ScanResult } from './scan-results.ts';
import { type TextLine, renderLine } from './text.ts';

// Fixed scan histories and profiles for the consultation's and the routine's tests, and the texts as
// a visitor reads them (both languages, from the real string files). Not shipped: only tests import it.

type Scores = Partial<Record<MetricId, number>>;

/**
 * The test photo face-sample3-a as the analysis reads it (analysis skin-1): the nose's shine (49.6)
 * is its one marked score. The left cheek's shine read 17.5; it is 5 here, under the level from which
 * shine stands out since skin-5 (15). Its evenness read 97.1–99.4 (the nose's 97.3, the lip contour's
 * 97.1); it is 99.1–99.7 here, as skin-9 reads this photo (99.4–100: it no longer counts the dips on the
 * edge of hair as spots), above the level from which evenness stands out since then (98) — so that the
 * nose's shine stays the one marked score, and the closest of the others to standing out is a shine too.
 */
export const SAMPLE_ZONES: Readonly<Record<ZoneId, Scores>> = {
  forehead: { redness: 0.1, evenness: 99.7, shine: 1, texture: 5.7 },
  leftCheek: { redness: 2.2, evenness: 99.6, shine: 5, texture: 10.3 },
  rightCheek: { redness: 4.4, evenness: 99.4, shine: 0, texture: 9.1 },
  eyeArea: { texture: 14.4, darkCircles: 12.6 },
  nose: { redness: 1, evenness: 99.3, shine: 49.6, texture: 15.2 },
  chin: { redness: 2.6, evenness: 99.3, shine: 0, texture: 10.4 },
  lipContour: { redness: 10.9, evenness: 99.1, texture: 14.4 },
};
export const SAMPLE_OVERALL: Readonly<Record<MetricId, number>> = {
  redness: 3.3,
  evenness: 99.3,
  shine: 14.5,
  texture: 10.9,
  darkCircles: 12.6,
};

/** How a photo was taken (analysis skin-3): a window in front, at arm's length, facing the camera. */
export const WINDOW_CONDITIONS: CaptureConditions = {
  light: 62,
  gradient: { horizontal: 0.05, vertical: 0.1 },
  colourTemperature: 5600,
  faceSize: 0.3,
  pxPerMm: 3.5,
  pose: { yaw: 1, pitch: 6, roll: 0 },
};

/** The sample's analysis with some scores changed (`overall` for the face-wide ones). */
export function analysisWith(changes: Partial<Record<ZoneId | 'overall', Scores>> = {}, version = 'skin-1'): Analysis {
  return {
    version,
    width: 600,
    height: 800,
    pxPerMm: 3,
    zones: ZONE_IDS.map((zone) => ({
      zone,
      outline: [],
      pixels: 1000,
      metrics: { ...SAMPLE_ZONES[zone], ...changes[zone] },
    })),
    overall: { ...SAMPLE_OVERALL, ...changes.overall },
  };
}

export function scanOf(
  id: string,
  takenAt: string,
  changes: Partial<Record<ZoneId | 'overall', Scores>> = {},
  version?: string,
): ScanResult {
  return { id, takenAt, analysis: analysisWith(changes, version) };
}

/** A profile that asks for nothing in particular: the base routine. */
export function profileOf(overrides: Partial<ConsultationProfile> = {}): ConsultationProfile {
  return {
    version: 1,
    skinType: 'normal',
    sensitivity: 'rarely',
    concerns: [],
    sunExposure: 'low',
    currentRoutine: [],
    ageBand: '25-34',
    updatedAt: '2026-11-20T09:00:00.000Z',
    ...overrides,
  };
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
const FILES: Record<'en' | 'fr', Json> = { en: en as Json, fr: fr as Json };

function lookup(lang: 'en' | 'fr', key: string): string | undefined {
  let node: Json | undefined = FILES[lang];
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** i18next's lookup as the page does it (plurals by `count`), failing loudly on a missing key. */
export function translator(lang: 'en' | 'fr') {
  const plural = new Intl.PluralRules(lang);
  return (key: string, values: Record<string, unknown> = {}): string => {
    const count = values.count;
    const template =
      (typeof count === 'number'
        ? (lookup(lang, `${key}_${plural.select(count)}`) ?? lookup(lang, `${key}_other`))
        : undefined) ?? lookup(lang, key);
    if (template === undefined) throw new Error(`No text for ${key} in ${lang}`);
    return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) => {
      if (!(name in values)) throw new Error(`${key} (${lang}) has no value for ${name}`);
      return String(values[name]);
    });
  };
}

/** The line as a visitor reads it (the tests' moments are mid-morning UTC: the same date in Europe's and America's time zones). */
export function read(line: TextLine, lang: 'en' | 'fr' = 'en'): string {
  return renderLine(line, translator(lang), lang);
}
