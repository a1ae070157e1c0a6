import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type Analysis,
  type CaptureConditions,
  METRIC_IDS,
  type MetricId,
  ZONE_IDS,
  type ZoneId,
} from '@skanova/skin/contract';
import {
  FLOORS_ANALYSIS_VERSION,
  HIGHER_IS_BETTER,
  LIGHT_DEPENDENT,
  type Place,
  noiseFloor,
} from '@skanova/skin/trend';
import commonEn from '@skanova/shared/i18n/en/common.json';
import studioEn from '@skanova/shared/i18n/en/studio.json';
import commonFr from '@skanova/shared/i18n/fr/common.json';
import studioFr from '@skanova/shared/i18n/fr/studio.json';
import { answer, fastChangePrompt } from '@skanova/shared/studio/consultation';
import { FAST_CHANGE, fastChanges } from '@skanova/shared/studio/scan-results';
import { read, WINDOW_CONDITIONS } from '@skanova/shared/studio/test-support';
import { I18nextProvider } from '../../lib/react-i18n';
import { createTestI18n } from '../../test-support/i18n';
import { Comparison } from './journal/compare-page';
import { JournalSummary } from './journal/journal-summary-section';
import {
  PLACES,
  buildSeries,
  changesBetween,
  countVerdicts,
  differencesOf,
  metricsAt,
  realChanges,
} from './journal/journal-model';
import type { ScanSummary } from './storage';

// Like compared with like (docs/skin-analysis.md § Like with like): two scans of one face, the
// second with the light from above (its slope from forehead to chin 0.6 stops steeper) and every score
// moved far beyond its noise floor. Nowhere — the journal's series and "since your previous scan", the
// comparison page, the consultation's and the routine's dermatologist prompt — does that read "worse"
// or "better". Then, between scans taken alike, shine alone getting worse (a light-dependent metric)
// raises no prompt, while redness getting worse still does.

const WEEK_BEFORE = '2026-11-18T09:00:00.000Z';
const NOW = '2026-11-25T09:00:00.000Z';

/** A window in front, at arm's length, facing the camera. */
const WINDOW = WINDOW_CONDITIONS;
/** The same place, with a lamp above: the forehead lit, the chin in shade. */
const LAMP_ABOVE: CaptureConditions = { ...WINDOW, gradient: { ...WINDOW.gradient, vertical: 0.7 } };

const floorOf = (metric: MetricId, place: Place) => noiseFloor(metric, place)!;

/** Where a metric starts, and how far it moves the wrong way: at least four floors and 15 points, within 0–100. */
const START: Record<MetricId, number> = { redness: 10, evenness: 99, shine: 10, texture: 10, darkCircles: 10 };
function worse(metric: MetricId, place: Place): number {
  const step = Math.max(4 * floorOf(metric, place), FAST_CHANGE.minPoints + 5);
  return HIGHER_IS_BETTER[metric] ? START[metric] - step : START[metric] + step;
}

/**
 * An analysis of the face: every metric at its start, or moved the wrong way where `moved` says
 * (all metrics in every place when `moved` is 'all').
 */
function analysis(conditions: CaptureConditions, moved: 'all' | 'none' | { metric: MetricId; zone: ZoneId }[]) {
  const value = (metric: MetricId, place: Place) =>
    moved === 'all' ||
    (moved !== 'none' && moved.some((move) => move.metric === metric && (place === 'overall' || move.zone === place)))
      ? worse(metric, place)
      : START[metric];
  const result: Analysis = {
    version: FLOORS_ANALYSIS_VERSION,
    conditions,
    width: 960,
    height: 1280,
    pxPerMm: 3.5,
    zones: ZONE_IDS.map((zone) => ({
      zone,
      outline: [],
      pixels: 1000,
      metrics: Object.fromEntries(metricsAt(zone).map((metric) => [metric, value(metric, zone)])),
    })),
    overall: Object.fromEntries(METRIC_IDS.map((metric) => [metric, value(metric, 'overall')])) as Record<
      MetricId,
      number
    >,
  };
  return result;
}

/** A saved scan as the journal and the comparison read it. */
function saved(id: string, takenAt: string, scores: Analysis): ScanSummary {
  return {
    id,
    takenAt,
    source: 'camera',
    analysisVersion: scores.version,
    modelVersion: 'human-3.3.6',
    gates: [],
    analysis: { ...scores, zones: scores.zones.map(({ outline: _outline, ...zone }) => zone) },
    thumbnail: new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: 'image/jpeg' }),
    thumbnailFrame: { x: 0, y: 0, width: 400, height: 400 },
  };
}

const STRINGS = { en: { common: commonEn, studio: studioEn }, fr: { common: commonFr, studio: studioFr } } as const;

function renderIn(lang: 'en' | 'fr', element: React.ReactNode) {
  const i18n = createTestI18n(lang, { [lang]: STRINGS[lang] });
  return render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>{element}</MemoryRouter>
    </I18nextProvider>,
  );
}

/** A change beyond the floor under the light from above, as every screen words it. */
const notComparable = (lang: 'en' | 'fr') =>
  `${STRINGS[lang].studio.reading.change.notComparable} (${STRINGS[lang].studio.journal.unsure.lightDirection})`;

/** The verdicts the page shows, as their badges read. */
const badges = () => [...document.querySelectorAll('.journal-verdict')].map((badge) => badge.textContent);

// jsdom has no object URLs: the previews are not what these tests look at.
const objectUrls = { createObjectURL: () => 'blob:preview', revokeObjectURL: () => {} };
beforeAll(() => {
  for (const [name, value] of Object.entries(objectUrls))
    Object.defineProperty(URL, name, { value, configurable: true, writable: true });
});
afterAll(() => {
  for (const name of Object.keys(objectUrls)) Reflect.deleteProperty(URL, name);
});
afterEach(cleanup);

describe('two photos not taken alike: the second with the light from above', () => {
  const before = saved('before', WEEK_BEFORE, analysis(WINDOW, 'none'));
  const after = saved('after', NOW, analysis(LAMP_ABOVE, 'all'));
  const scans = [after, before];

  it('differ in the light’s direction only (0.6 stops from forehead to chin)', () => {
    const { changes } = changesBetween(before, after);
    // Every metric, face-wide and in each zone that measures it.
    expect(changes).toHaveLength(PLACES.reduce((sum, place) => sum + metricsAt(place).length, 0));
    expect(differencesOf(changes)).toEqual(['lightDirection']);
  });

  it('make every change beyond the floor unsure in the journal’s model, never better or worse', () => {
    const { changes } = changesBetween(before, after);
    // Every score moved far beyond its floor: all unsure.
    expect(countVerdicts(changes)).toEqual({ better: 0, worse: 0, stable: 0, unsure: changes.length });
    expect(realChanges(changes).every((change) => change.verdict === 'unsure')).toBe(true);
    for (const place of PLACES)
      for (const metric of metricsAt(place)) {
        const series = buildSeries(scans, place, metric);
        const verdicts = [
          ...series.points.map((point) => point.change?.verdict),
          series.sincePrevious?.verdict,
          series.sinceFirst?.verdict,
        ];
        expect(verdicts, `${metric} ${place}`).toEqual([undefined, 'unsure', 'unsure', 'unsure']);
      }
  });

  for (const lang of ['en', 'fr'] as const) {
    const t = STRINGS[lang].studio;

    it(`${lang}: the comparison page says what differed and never "better" or "worse"`, () => {
      renderIn(lang, <Comparison a={before} b={after} />);
      expect(badges()).toHaveLength(changesBetween(before, after).changes.length);
      expect(badges()).not.toContain(t.reading.change.worse);
      expect(badges()).not.toContain(t.reading.change.better);
      expect(new Set(badges())).toEqual(new Set([notComparable(lang)]));
      expect(document.querySelectorAll('.compare-row--worse, .compare-row--better')).toHaveLength(0);
      expect(screen.getByRole('note').textContent).toContain(t.journal.differences.lightDirection);
      const { changes } = changesBetween(before, after);
      const counts = t.compare.countsUnsure
        .replace('{{total}}', String(changes.length))
        .replace('{{better}}', '0')
        .replace('{{worse}}', '0')
        .replace('{{unsure}}', String(changes.length))
        .replace('{{stable}}', '0');
      expect(document.querySelector('.compare-summary')?.textContent).toContain(counts);
    });

    it(`${lang}: the journal's summary says the newest scan is not comparable, and why, with no verdict`, () => {
      renderIn(lang, <JournalSummary scans={scans} />);
      expect(badges()).toHaveLength(0);
      const summary = screen.getByRole('region', { name: t.journal.summary.title }).textContent;
      expect(summary).toContain(t.journal.reasons.lightDirection);
      expect(summary).not.toContain(t.reading.change.worse);
    });
  }

  it('raise no dermatologist prompt: not in the consultation, not on the routine page', () => {
    expect(fastChanges(scans)).toEqual([]);
    expect(fastChangePrompt(scans)).toBeNull();
    expect(answer('dermatologist', { profile: undefined, scans }).dermatologist).toBeNull();
    expect(answer('changes', { profile: undefined, scans }).dermatologist).toBeNull();
    // The consultation names the changes as unsure, in words.
    const listed = answer('changes', { profile: undefined, scans }).blocks.find((block) => block.kind === 'list');
    expect(listed?.kind === 'list' && read(listed.items[0]!)).toMatch(/not taken alike/);
  });

  it('while the same moves between photos taken alike would raise it', () => {
    const alike = [saved('after', NOW, analysis(WINDOW, 'all')), before];
    expect(fastChangePrompt(alike)).not.toBeNull();
  });
});

describe('between photos taken alike, a light-dependent metric alone raises no prompt', () => {
  const before = saved('before', WEEK_BEFORE, analysis(WINDOW, 'none'));

  it('shine (and dark circles) getting worse: "worse" in the journal, but no dermatologist prompt', () => {
    expect([...LIGHT_DEPENDENT].sort()).toEqual(['darkCircles', 'shine']);
    const after = saved(
      'after',
      NOW,
      analysis(WINDOW, [
        { metric: 'shine', zone: 'nose' },
        { metric: 'darkCircles', zone: 'eyeArea' },
      ]),
    );
    const { changes } = changesBetween(before, after);
    expect(realChanges(changes).map((change) => `${change.metric} ${change.place} ${change.verdict}`)).toEqual(
      expect.arrayContaining(['shine nose worse', 'darkCircles eyeArea worse']),
    );
    expect(fastChanges([after, before])).toEqual([]);
    expect(fastChangePrompt([after, before])).toBeNull();
    expect(answer('dermatologist', { profile: undefined, scans: [after, before] }).dermatologist).toBeNull();
  });

  it('redness getting worse in the same zone still raises it, named first; shine adds to it', () => {
    const redness = saved('after', NOW, analysis(WINDOW, [{ metric: 'redness', zone: 'nose' }]));
    const prompt = fastChangePrompt([redness, before]);
    expect(prompt).not.toBeNull();
    expect(read(prompt!)).toMatch(/^Redness on your nose moved from 10 to \d+\/100/);

    const both = saved(
      'after',
      NOW,
      analysis(WINDOW, [
        { metric: 'redness', zone: 'nose' },
        { metric: 'shine', zone: 'nose' },
      ]),
    );
    const found = fastChanges([both, before]).map((fast) => `${fast.change.metric} ${fast.change.place}`);
    // The reason is redness; shine (light-dependent) is listed after it, never first.
    expect(found[0]).toMatch(/^redness /);
    expect(found).toContain('shine nose');
    expect(found.findIndex((item) => item.startsWith('shine'))).toBeGreaterThan(
      found.findLastIndex((item) => item.startsWith('redness')),
    );
    expect(read(fastChangePrompt([both, before])!)).toMatch(/^Redness on your /);
    expect(answer('dermatologist', { profile: undefined, scans: [both, before] }).dermatologist).toEqual(
      fastChangePrompt([both, before]),
    );
  });
});
