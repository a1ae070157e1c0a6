import { describe, expect, it } from 'vitest';
import { type MetricId, ZONE_IDS } from '@skanova/skin/contract';
import { AGE_BANDS, CONCERNS, ROUTINE_PRODUCTS, SENSITIVITIES, SKIN_TYPES, SUN_EXPOSURES } from './profile.ts';
import { ROUTINE_RULES, ROUTINE_RULES_VERSION, STEPS, type StepTag } from './routine-rules.ts';
import { type Routine, type RoutineEntry, buildRoutine, routineChanges, snapshotOf } from './routines.ts';
import { aimOf, readLevel } from './reading.ts';
import { MARKED_FROM } from './scan-results.ts';
import { profileOf, read, scanOf } from './test-support.ts';

const ids = (entries: readonly RoutineEntry[]) => entries.map((entry) => entry.step.id);
const entry = (routine: Routine, id: string, time: 'morning' | 'evening' = 'morning') =>
  (time === 'morning' ? routine.morning : routine.evening).find((candidate) => candidate.step.id === id);
const reasons = (found: RoutineEntry | undefined) => found?.reasons.map((reason) => read(reason)) ?? [];
const has = (found: RoutineEntry, tag: StepTag) => (found.step.tags as readonly StepTag[]).includes(tag);

/** The test photo, scanned on 25 November: the nose's shine (49.6) is its one marked score. */
const SAMPLE = scanOf('sample', '2026-11-25T10:00:00.000Z');

describe('the routine rules', () => {
  it('give everyone the base: cleanse and moisturise morning and evening, sunscreen in the morning', () => {
    const routine = buildRoutine(profileOf(), []);
    expect(ids(routine.morning)).toEqual(['cleanser-gentle', 'moisturiser-light', 'spf-30']);
    expect(ids(routine.evening)).toEqual(['cleanser-gentle', 'moisturiser-light']);
    expect(routine.leftOut).toEqual([]);
    expect(reasons(entry(routine, 'spf-30'))).toEqual([
      'Daylight is what ages and marks the skin most: a broad-spectrum SPF 30 or more every morning, even when it is cloudy.',
    ]);
    expect(routine.basis).toEqual({ scanId: null, scanTakenAt: null, profileUpdatedAt: '2026-11-20T09:00:00.000Z' });
  });

  it('read the latest scan: a score that stands out adds steps whose reasons name the zone, the score and the scan', () => {
    const older = scanOf('older', '2026-11-18T10:00:00.000Z', { nose: { shine: 5 } });
    const routine = buildRoutine(profileOf(), [older, SAMPLE]);
    expect(routine.basis.scanId).toBe('sample');
    expect(ids(routine.morning)).toEqual(['cleanser-gel', 'niacinamide-serum', 'moisturiser-light', 'spf-30']);
    expect(ids(routine.evening)).toEqual(['cleanser-gel', 'niacinamide-serum', 'bha-exfoliant', 'moisturiser-light']);
    expect(reasons(entry(routine, 'bha-exfoliant', 'evening'))).toEqual([
      `Shine stood out on your nose on November 25, 2026 (50/100; it stands out from ${MARKED_FROM.shine}): salicylic acid clears oil inside the pores; apply it there first.`,
    ]);
    expect(reasons(entry(routine, 'niacinamide-serum'))).toEqual([
      `Shine stood out on your nose on November 25, 2026 (50/100; it stands out from ${MARKED_FROM.shine}): niacinamide helps regulate oil.`,
    ]);
    expect(read(entry(routine, 'cleanser-gel')!.reasons[0]!, 'fr')).toBe(
      `La brillance ressortait sur le nez le 25 novembre 2026 (50/100 ; elle ressort dès ${MARKED_FROM.shine}) : un gel nettoyant enlève l'excès de sébum.`,
    );
  });

  describe('answer each metric in its own direction, as every screen reads it', () => {
    /** Every rule that put a step in the routine or selected one a safety rule left out. */
    const rulesHeld = (routine: Routine) =>
      new Set(
        [...routine.morning, ...routine.evening, ...routine.leftOut].flatMap((found) =>
          found.reasons.map((reason) => reason.rule),
        ),
      );
    const scanRules = ROUTINE_RULES.filter((rule) => rule.when.some((condition) => condition.kind === 'metric'));
    /** A scan where `metric` reads `value` in every zone and on the whole face. */
    const everywhere = (metric: MetricId, value: number) =>
      scanOf(
        'scan',
        '2026-11-25T10:00:00.000Z',
        Object.fromEntries([...ZONE_IDS, 'overall'].map((place) => [place, { [metric]: value }])),
      );

    it('hold at a score that stands out, never at the other end of the scale', () => {
      expect(scanRules.length).toBeGreaterThan(0);
      for (const rule of scanRules) {
        const condition = rule.when.find((candidate) => candidate.kind === 'metric')!;
        if (condition.kind !== 'metric') continue;
        const { metric } = condition;
        const best = aimOf(metric) === 'higher' ? 100 : 0;
        const worst = 100 - best;
        expect(rulesHeld(buildRoutine(profileOf(), [everywhere(metric, worst)])), `${rule.id} at ${worst}`).toContain(
          rule.id,
        );
        expect(rulesHeld(buildRoutine(profileOf(), [everywhere(metric, best)])), `${rule.id} at ${best}`).not.toContain(
          rule.id,
        );
        // At the threshold it holds, one point on the good side it does not: the one reading.
        const threshold = readLevel(metric, 'nose', 0).threshold;
        const good = aimOf(metric) === 'higher' ? threshold + 1 : threshold - 1;
        expect(rulesHeld(buildRoutine(profileOf(), [everywhere(metric, threshold)]))).toContain(rule.id);
        expect(rulesHeld(buildRoutine(profileOf(), [everywhere(metric, good)]))).not.toContain(rule.id);
      }
    });

    it('give no vitamin C serum "for unevenness" to an even skin (evenness 99), and one to a less even skin', () => {
      const even = buildRoutine(profileOf(), [everywhere('evenness', 99)]);
      expect(ids(even.morning)).not.toContain('vitamin-c-serum');
      expect(ids(even.morning)).not.toContain('spf-50');
      const lessEven = buildRoutine(profileOf(), [everywhere('evenness', MARKED_FROM.evenness - 10)]);
      expect(reasons(entry(lessEven, 'vitamin-c-serum'))).toEqual([
        `Your forehead looked less even on November 25, 2026 (evenness ${MARKED_FROM.evenness - 10}/100; it stands out at ${MARKED_FROM.evenness} or below): vitamin C helps even out the look of the tone.`,
      ]);
    });
  });

  it('pick one product per single slot by priority: skin type and sensitivity choose the cleanser and the cream', () => {
    const dry = buildRoutine(profileOf({ skinType: 'dry' }), []);
    expect(ids(dry.morning)).toEqual(['cleanser-gentle', 'hydrating-serum', 'moisturiser-rich', 'spf-30']);
    expect(reasons(entry(dry, 'cleanser-gentle'))).toHaveLength(2);
    const oily = buildRoutine(profileOf({ skinType: 'oily' }), []);
    expect(ids(oily.morning)).toEqual(['cleanser-gel', 'moisturiser-light', 'spf-30']);
    const sunny = buildRoutine(profileOf({ sunExposure: 'high' }), []);
    expect(ids(sunny.morning)).toEqual(['cleanser-gentle', 'vitamin-c-serum', 'moisturiser-light', 'spf-50']);
    expect(ids(sunny.evening)).toEqual(['cleansing-balm', 'cleanser-gentle', 'moisturiser-light']);
  });

  it('keep one exfoliating active per routine, say which stayed, and ask for SPF 50 with it', () => {
    const routine = buildRoutine(profileOf({ concerns: ['fine-lines', 'texture', 'blemishes'] }), []);
    expect(ids(routine.evening)).toEqual([
      'cleanser-gentle',
      'niacinamide-serum',
      'azelaic-acid',
      'retinoid',
      'moisturiser-light',
    ]);
    expect(routine.leftOut.map((left) => [left.step.id, left.safety])).toEqual([
      ['aha-exfoliant', 'one-exfoliant'],
      ['bha-exfoliant', 'one-exfoliant'],
    ]);
    expect(read(routine.leftOut[0]!.why)).toBe(
      'One exfoliating active per routine: two together (an acid and a retinoid, or two acids) irritate the skin. This routine keeps the retinoid.',
    );
    expect(ids(routine.morning)).toContain('spf-50');
    expect(reasons(entry(routine, 'spf-50'))).toEqual([
      'Your evening routine has an exfoliating active that makes the skin more sensitive to the sun: SPF 50 every morning.',
    ]);
    expect(read(entry(routine, 'retinoid', 'evening')!.reasons[0]!)).toMatch(/fine lines/);
    expect(entry(routine, 'retinoid', 'evening')!.step.frequency).toBe('someEvenings');
  });

  it('leave retinoids out from 13 to 17, even for someone who uses one', () => {
    const teen = buildRoutine(
      profileOf({ ageBand: '13-17', concerns: ['fine-lines', 'texture'], currentRoutine: ['retinoid'] }),
      [],
    );
    expect(ids(teen.evening)).not.toContain('retinoid');
    expect(ids(teen.evening)).toContain('aha-exfoliant');
    const retinoid = teen.leftOut.find((left) => left.step.id === 'retinoid')!;
    expect(retinoid.safety).toBe('no-retinoid-under-18');
    expect(read(retinoid.why)).toMatch(/^Retinoids are for adults: under 18 the routine has none\./);
    expect(retinoid.reasons.map((reason) => reason.rule)).toEqual([
      'retinoid-lines',
      'retinoid-texture',
      'retinoid-uses',
    ]);
    const adult = buildRoutine(profileOf({ ageBand: '18-24', currentRoutine: ['retinoid'] }), []);
    expect(ids(adult.evening)).toContain('retinoid');
  });

  it('give a skin that reacts often gentler products and one active per routine', () => {
    const profile = profileOf({ sensitivity: 'often', concerns: ['redness', 'uneven-tone', 'texture'] });
    const routine = buildRoutine(profile, [SAMPLE]);
    expect(ids(routine.morning)).toEqual([
      'cleanser-gentle',
      'niacinamide-serum',
      'moisturiser-soothing',
      'spf-mineral-50',
    ]);
    expect(ids(routine.evening)).toEqual(['cleanser-gentle', 'niacinamide-serum', 'moisturiser-soothing']);
    const left = Object.fromEntries(routine.leftOut.map((item) => [item.step.id, item.safety]));
    expect(left).toEqual({
      'vitamin-c-serum': 'sensitive-no-strong',
      'aha-exfoliant': 'sensitive-no-strong',
      'bha-exfoliant': 'sensitive-no-strong',
      retinoid: 'sensitive-no-strong',
      'azelaic-acid': 'actives-often',
    });
    expect(read(routine.leftOut.find((item) => item.step.id === 'azelaic-acid')!.why)).toBe(
      'Your skin often reacts to products: one active ingredient per routine. This routine keeps the niacinamide serum.',
    );
  });

  it('allow two actives per routine to a skin that reacts sometimes, the highest priorities kept', () => {
    const profile = profileOf({ sensitivity: 'sometimes', concerns: ['redness', 'uneven-tone', 'shine'] });
    const routine = buildRoutine(profile, []);
    expect(ids(routine.morning)).toEqual([
      'cleanser-gentle',
      'vitamin-c-serum',
      'niacinamide-serum',
      'moisturiser-light',
      'spf-50',
    ]);
    expect(ids(routine.evening)).toEqual(['cleanser-gentle', 'niacinamide-serum', 'azelaic-acid', 'moisturiser-light']);
    const left = Object.fromEntries(routine.leftOut.map((item) => [item.step.id, read(item.why)]));
    expect(left).toEqual({
      'aha-exfoliant':
        'One exfoliating active per routine: two together (an acid and a retinoid, or two acids) irritate the skin. This routine keeps the BHA exfoliant.',
      'bha-exfoliant':
        'Your skin sometimes reacts to products: two active ingredients per routine at most. This routine keeps the niacinamide serum and the azelaic acid.',
    });
    // The same answers on a skin that rarely reacts: three actives in the evening.
    const rarely = buildRoutine({ ...profile, sensitivity: 'rarely' }, []);
    expect(ids(rarely.evening)).toEqual([
      'cleanser-gentle',
      'niacinamide-serum',
      'azelaic-acid',
      'bha-exfoliant',
      'moisturiser-light',
    ]);
  });

  it('hold the safety rules and give every step a reason, for every profile', () => {
    const scans = [
      SAMPLE,
      scanOf('marked', '2026-12-02T10:00:00.000Z', {
        chin: { redness: 40, evenness: 85 },
        eyeArea: { darkCircles: 30 },
        forehead: { texture: 40 },
      }),
    ];
    const texts = new Map<string, { key: string }>();
    const problems: string[] = [];
    let routines = 0;
    for (const skinType of SKIN_TYPES)
      for (const sensitivity of SENSITIVITIES)
        for (const sunExposure of SUN_EXPOSURES)
          for (const ageBand of AGE_BANDS)
            for (let c = 0; c < CONCERNS.length; c++) {
              const concerns = [
                CONCERNS[c]!,
                CONCERNS[(c + 3) % CONCERNS.length]!,
                CONCERNS[(c + 5) % CONCERNS.length]!,
              ];
              const currentRoutine = ROUTINE_PRODUCTS.filter((_, index) => (index + c) % 2 === 0);
              const profile = profileOf({ skinType, sensitivity, sunExposure, ageBand, concerns, currentRoutine });
              for (const history of [[], scans.slice(0, 1), scans]) {
                const routine = buildRoutine(profile, history);
                routines++;
                const broken = (rule: string) =>
                  problems.push(`${rule}: ${JSON.stringify(profile)} ${history.length} scans`);
                for (const steps of [routine.morning, routine.evening]) {
                  const count = (test: (item: RoutineEntry) => boolean) => steps.filter(test).length;
                  if (count((item) => has(item, 'exfoliating')) > 1) broken('one exfoliant');
                  if (
                    count((item) => has(item, 'active')) >
                    (sensitivity === 'often' ? 1 : sensitivity === 'sometimes' ? 2 : 3)
                  )
                    broken('actives');
                  if (ageBand === '13-17' && count((item) => has(item, 'retinoid')) > 0) broken('no retinoid under 18');
                  if (sensitivity === 'often' && count((item) => has(item, 'strong')) > 0) broken('gentle');
                  if (count((item) => item.step.slot === 'cleanse') !== 1) broken('one cleanser');
                  if (count((item) => item.step.slot === 'moisturise') !== 1) broken('one moisturiser');
                  for (const item of steps) {
                    if (item.reasons.length === 0) broken(`a reason for ${item.step.id}`);
                    for (const reason of item.reasons) texts.set(JSON.stringify(reason), reason);
                  }
                }
                if (routine.morning.filter((item) => item.step.slot === 'protect').length !== 1) broken('sunscreen');
                if (
                  routine.evening.some((item) => has(item, 'photosensitising')) &&
                  !ids(routine.morning).some((id) => id.endsWith('50'))
                )
                  broken('SPF 50 with a photosensitising step');
                for (const left of routine.leftOut) texts.set(JSON.stringify(left.why), left.why);
              }
            }
    expect(problems).toEqual([]);
    expect(routines).toBe(5 * 3 * 3 * 6 * 8 * 3);
    // Every reason and every safety text reads in both languages, with all its values.
    for (const text of texts.values())
      for (const lang of ['en', 'fr'] as const) expect(read(text, lang)).not.toMatch(/\{\{/);
    expect(new Set([...texts.values()].map((text) => text.key)).size).toBeGreaterThan(40);
  }, 60_000);

  it('are data a reader can follow: every rule names a known step and a reason in both languages', () => {
    const stepIds = STEPS.map((step) => step.id);
    for (const rule of ROUTINE_RULES) {
      expect(stepIds).toContain(rule.step);
      expect(rule.when.length).toBeGreaterThan(0);
    }
    expect(new Set(ROUTINE_RULES.map((rule) => rule.id)).size).toBe(ROUTINE_RULES.length);
    for (const step of STEPS)
      for (const lang of ['en', 'fr'] as const) {
        read({ key: `routine.steps.${step.id}.name` }, lang);
        for (const ingredient of step.ingredients) read({ key: `routine.ingredients.${ingredient}` }, lang);
        if ('caution' in step) read({ key: `routine.cautions.${step.caution}` }, lang);
      }
  });
});

describe('what changed in the routine', () => {
  const lines = (items: readonly { key: string }[]) => items.map((item) => read(item));

  it('after new answers: the added steps with their reasons, the removed ones with why', () => {
    const before = profileOf({ concerns: ['fine-lines'] });
    const shown = snapshotOf(buildRoutine(before, [SAMPLE]));
    const after = {
      ...before,
      ageBand: '13-17' as const,
      concerns: ['fine-lines' as const, 'dark-circles' as const],
      updatedAt: '2026-11-26T08:00:00.000Z',
    };
    const routine = buildRoutine(after, [SAMPLE]);
    const changes = routineChanges(shown, routine, after, [SAMPLE])!;
    expect(changes.newAnswers).toBe(true);
    expect(changes.newScan).toBe(false);
    const added = Object.fromEntries(
      changes.added.map((item) => [`${item.step.id}/${item.time}`, lines(item.reasons)]),
    );
    expect(Object.keys(added).sort()).toEqual(['bha-exfoliant/evening', 'eye-cream/morning', 'spf-30/morning']);
    expect(added['eye-cream/morning']).toEqual([
      'You want to work on dark circles: an eye cream with caffeine can make the under-eye area look less shadowed in the morning.',
    ]);
    const removed = Object.fromEntries(
      changes.removed.map((item) => [`${item.step.id}/${item.time}`, lines(item.why)]),
    );
    expect(removed).toEqual({
      'spf-50/morning': ['Replaced by the SPF 30 sunscreen.'],
      'retinoid/evening': [
        'Retinoids are for adults: under 18 the routine has none. If you already use one, ask a pharmacist or a dermatologist whether it suits you.',
      ],
    });
  });

  it('after a new scan: a score that no longer stands out says so with its new value', () => {
    const profile = profileOf();
    const shown = snapshotOf(buildRoutine(profile, [SAMPLE]));
    const calmer = scanOf('calmer', '2026-12-02T10:00:00.000Z', { nose: { shine: 12 } });
    const routine = buildRoutine(profile, [SAMPLE, calmer]);
    const changes = routineChanges(shown, routine, profile, [SAMPLE, calmer])!;
    expect(changes).toMatchObject({ newScan: true, newAnswers: false });
    expect(changes.removed.map((item) => [item.step.id, item.time, lines(item.why)])).toEqual([
      ['cleanser-gel', 'morning', ['Replaced by the gentle cream cleanser.']],
      [
        'niacinamide-serum',
        'morning',
        ['On your scan of December 2, 2026, shine on your nose is at 12/100: this score no longer stands out.'],
      ],
      ['cleanser-gel', 'evening', ['Replaced by the gentle cream cleanser.']],
      [
        'niacinamide-serum',
        'evening',
        ['On your scan of December 2, 2026, shine on your nose is at 12/100: this score no longer stands out.'],
      ],
      [
        'bha-exfoliant',
        'evening',
        ['On your scan of December 2, 2026, shine on your nose is at 12/100: this score no longer stands out.'],
      ],
    ]);
    expect(changes.added.map((item) => `${item.step.id}/${item.time}`)).toEqual([
      'cleanser-gentle/morning',
      'cleanser-gentle/evening',
    ]);
    expect(read(changes.removed[1]!.why[0]!, 'fr')).toBe(
      'Votre scan du 2 décembre 2026 donne 12/100 pour la brillance sur le nez : ce score ne ressort plus.',
    );
  });

  it('says nothing changed when the new basis gives the same steps, and ignores a routine of other rules', () => {
    const profile = profileOf();
    const shown = snapshotOf(buildRoutine(profile, []));
    const same = { ...profile, sunExposure: 'moderate' as const, updatedAt: '2026-11-27T08:00:00.000Z' };
    const changes = routineChanges(shown, buildRoutine(same, []), same, [])!;
    expect(changes).toMatchObject({ newAnswers: true, added: [], removed: [] });
    expect(
      routineChanges({ ...shown, rulesVersion: ROUTINE_RULES_VERSION + 1 }, buildRoutine(same, []), same, []),
    ).toBeUndefined();
  });
});
