/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type Answer,
  type AnswerBlock,
  type ConsultationInput,
  answer,
  fastChangePrompt,
  questions,
} from './consultation.ts';
import { compareAnalyses, noiseFloor } from '@skanova/skin/trend';
import { FAST_CHANGE, MARKED_FROM, fastChanges } from './scan-results.ts';
import { profileOf, read, scanOf } from './test-support.ts';

// The consultation's answers on fixed scan histories: they name the visitor's real scores, judge
// every change against its noise floor (the shipped floors, read here as the app reads them), and
// suggest a dermatologist for a fast, large change or a sign a photo cannot judge.

/** A number as the answers write it: one decimal at most, a comma in French. */
const num = (value: number, lang: 'en' | 'fr' = 'en') => {
  const text = String(Number(value.toFixed(1)));
  return lang === 'fr' ? text.replace('.', ',') : text;
};
const NOSE_SHINE = noiseFloor('shine', 'nose')!;
const FACE_SHINE = noiseFloor('shine', 'overall')!;
const CHIN_REDNESS = noiseFloor('redness', 'chin')!;
/** A jump of chin redness the dermatologist prompt must see: beyond its floor multiple and its minimum. */
const PROMPT_JUMP = Math.ceil(Math.max(FAST_CHANGE.floorMultiple * CHIN_REDNESS, FAST_CHANGE.minPoints)) + 2;

type Lang = 'en' | 'fr';
const textOf = (given: Answer, lang: Lang = 'en') =>
  given.blocks
    .flatMap((block: AnswerBlock) => (block.kind === 'text' ? [block.line] : block.items))
    .map((item) => read(item, lang));

const SAMPLE = scanOf('sample', '2026-11-25T10:00:00.000Z');
const PROFILE = profileOf({ concerns: ['shine', 'dryness'], skinType: 'combination' });

describe('the questions', () => {
  it('are the results questions, one per concern of the profile, then the safety ones', () => {
    const asked = questions({ profile: PROFILE, scans: [SAMPLE] });
    expect(asked.map((question) => question.id)).toEqual([
      'standouts',
      'changes',
      'whyNoRealChange',
      'concern:shine',
      'concern:dryness',
      'routine',
      'reliability',
      'dermatologist',
      'unusualSign',
    ]);
    expect(read(asked[2]!.text)).toBe('Why “no real change”?');
    expect(read(asked[3]!.text)).toBe('What do my results say about “Shine”?');
    expect(read(asked[4]!.text, 'fr')).toBe('Que disent mes résultats sur « Sécheresse » ?');
    expect(questions({ profile: undefined, scans: [] }).map((question) => question.id)).not.toContain('concern:shine');
  });
});

describe('the answers', () => {
  it('without a scan, say so and offer one; without a profile, offer the questionnaire', () => {
    const none: ConsultationInput = { profile: PROFILE, scans: [] };
    for (const id of ['standouts', 'changes', 'routine', 'concern:shine'] as const) {
      const given = answer(id, none);
      expect(textOf(given)).toEqual(['You have no scan yet. Take one: this answer will then use your own results.']);
      expect(given.actions).toEqual(['scan']);
    }
    const noProfile = answer('routine', { profile: undefined, scans: [SAMPLE] });
    expect(noProfile.actions).toEqual(['questionnaire']);
    // The questions a photo does not answer work without either.
    expect(answer('dermatologist', { profile: undefined, scans: [] }).blocks.length).toBeGreaterThan(1);
  });

  it('name the zone that stands out with its real score, what it can come from there, and what it means', () => {
    const given = answer('standouts', { profile: PROFILE, scans: [SAMPLE] });
    const text = textOf(given);
    expect(text[0]).toBe('On your scan of November 25, 2026, 1 zone score stands out:');
    expect(text[1]).toBe(`Shine on your nose: 50/100. This score stands out from ${MARKED_FROM.shine}.`);
    expect(text[2]).toMatch(/^The bridge and the tip of the nose catch the light first/);
    expect(text).toContain('The share of the zone that reflects the light as bright, colourless highlights.');
    expect(text).toContain('It is not a measure of oil or hydration: the light and the angle change it a lot.');
    expect(text.at(-1)).toMatch(/not a diagnosis/);
    expect(textOf(given, 'fr')[1]).toBe(`Brillance sur le nez : 50/100. Ce score ressort dès ${MARKED_FROM.shine}.`);
    expect(given.dermatologist).toBeNull();
  });

  it('write what a score can come from per zone, and what a metric means once per answer', () => {
    const scan = scanOf('two', '2026-11-25T10:00:00.000Z', {
      nose: { shine: 60 },
      forehead: { shine: 55 },
      chin: { evenness: MARKED_FROM.evenness - 10 },
    });
    const text = textOf(answer('standouts', { profile: PROFILE, scans: [scan] }));
    expect(text).toContain(
      `Evenness on your chin: ${MARKED_FROM.evenness - 10}/100. Higher means more even, and this score stands out at ${MARKED_FROM.evenness} or below.`,
    );
    const forehead = text.findIndex((item) => item.startsWith('Shine on your forehead'));
    const nose = text.findIndex((item) => item.startsWith('Shine on your nose'));
    // Each zone its own words, not the same bullets repeated.
    expect(text[forehead + 1]).toMatch(/^The forehead is part of the T-zone/);
    expect(text[nose + 1]).toMatch(/^The bridge and the tip of the nose/);
    expect(text[forehead + 1]).not.toBe(text[nose + 1]);
    expect(text.filter((item) => item.startsWith('The share of the zone that reflects the light'))).toHaveLength(1);
  });

  it('say when nothing stands out, and name the closest score', () => {
    const calm = scanOf('calm', '2026-11-25T10:00:00.000Z', {
      nose: { shine: MARKED_FROM.shine - 5 },
      eyeArea: { darkCircles: 5 },
    });
    const text = textOf(answer('standouts', { profile: PROFILE, scans: [calm] }));
    expect(text[0]).toBe('On your scan of November 25, 2026, no zone score stands out.');
    expect(text[1]).toBe(
      `The closest is shine on your nose: ${MARKED_FROM.shine - 5}/100 (this score stands out from ${MARKED_FROM.shine}).`,
    );
  });

  describe('what changed, against the noise floor (nose shine)', () => {
    const before = scanOf('before', '2026-11-18T10:00:00.000Z', { nose: { shine: 40 } });

    it('calls a change just below the floor no real change', () => {
      const after = scanOf('after', '2026-11-25T10:00:00.000Z', { nose: { shine: 40 + NOSE_SHINE - 0.1 } });
      const text = textOf(answer('changes', { profile: PROFILE, scans: [after, before] }));
      expect(text[0]).toBe('Between your scan of November 18, 2026 and that of November 25, 2026 (7 days):');
      expect(text[1]).toBe('None of the 30 measures compared shows a real change.');
    });

    it('calls a change just above it worse, with the numbers and the movement in words, and counts the others', () => {
      const delta = NOSE_SHINE + 0.1;
      const after = scanOf('after', '2026-11-25T10:00:00.000Z', { nose: { shine: 40 + delta } });
      const given = answer('changes', { profile: PROFILE, scans: [before, after] });
      const text = textOf(given);
      const now = Math.round(40 + delta);
      expect(text[1]).toBe(`Shine on the nose: 40 → ${now}/100, more shine: worse.`);
      expect(text[2]).toBe('29 other measures: no real change.');
      expect(textOf(given, 'fr')[1]).toBe(`Brillance sur le nez : 40 → ${now}/100, plus de brillance : moins bien.`);
      // The noise floor is explained once, where the visitor asks: not under every change.
      expect(text.join(' ')).not.toMatch(/noise floor/);
      // One floor: no reason to see anyone.
      expect(given.dermatologist).toBeNull();
    });

    it('calls a drop beyond the floor better', () => {
      const noseDrop = Math.ceil(NOSE_SHINE) + 1;
      const faceDrop = Math.ceil(FACE_SHINE) + 1;
      const after = scanOf('after', '2026-11-25T10:00:00.000Z', {
        nose: { shine: 40 - noseDrop },
        overall: { shine: 14.5 - faceDrop },
      });
      const text = textOf(answer('changes', { profile: PROFILE, scans: [before, after] }));
      // Both, the change that is more floors away first.
      expect(text.slice(1, 3).toSorted()).toEqual(
        [
          `Shine on the nose: 40 → ${40 - noseDrop}/100, less shine: better.`,
          `Shine on the whole face: 15 → ${Math.round(14.5 - faceDrop)}/100, less shine: better.`,
        ].toSorted(),
      );
    });

    it('needs two scans of the same analysis version', () => {
      expect(textOf(answer('changes', { profile: PROFILE, scans: [SAMPLE] }))[0]).toMatch(/^You have one scan so far/);
      const other = scanOf('other', '2026-12-02T10:00:00.000Z', {}, 'skin-0');
      expect(textOf(answer('changes', { profile: PROFILE, scans: [SAMPLE, other] }))).toEqual([
        'Your scans of November 25, 2026 and December 2, 2026 were measured by different versions of the analysis: their scores cannot be compared.',
      ]);
    });
  });

  describe('the dermatologist prompt', () => {
    // Chin redness: the prompt needs FAST_CHANGE.floorMultiple floors and FAST_CHANGE.minPoints points.
    const before = scanOf('before', '2026-11-18T10:00:00.000Z', { chin: { redness: 3 } });
    const jump = (takenAt: string, redness: number) => scanOf('after', takenAt, { chin: { redness } });

    it('comes with a fast, large change the wrong way, with its numbers', () => {
      const scans = [before, jump('2026-11-25T10:00:00.000Z', 3 + PROMPT_JUMP)];
      expect(fastChanges(scans).map((found) => [found.change.metric, found.change.place, found.days])).toEqual([
        ['redness', 'chin', 7],
      ]);
      const prompt = fastChangePrompt(scans)!;
      expect(read(prompt)).toBe(
        `Redness on your chin moved from 3 to ${3 + PROMPT_JUMP}/100 between November 18, 2026 and November 25, 2026 (7 days): far more than a new photo alone can move it (up to ${num(CHIN_REDNESS)}). A fast, large change is worth showing to a dermatologist.`,
      );
      expect(answer('changes', { profile: PROFILE, scans }).dermatologist).toEqual(prompt);
      const given = answer('dermatologist', { profile: PROFILE, scans });
      expect(given.dermatologist).toEqual(prompt);
      expect(textOf(given)).toContain(read(prompt));
    });

    it('does not come for a change under its limits, a slow one, or an improvement', () => {
      expect(fastChanges([before, jump('2026-11-25T10:00:00.000Z', 3 + PROMPT_JUMP - 3)])).toEqual([]);
      expect(fastChanges([before, jump('2026-12-03T10:00:00.000Z', 3 + PROMPT_JUMP)])).toEqual([]);
      const better = scanOf('after', '2026-11-25T10:00:00.000Z', { chin: { evenness: 99.3 } });
      const worse = scanOf('before', '2026-11-18T10:00:00.000Z', { chin: { evenness: 80 } });
      expect(fastChanges([worse, better])).toEqual([]);
      const given = answer('dermatologist', {
        profile: PROFILE,
        scans: [before, jump('2026-12-03T10:00:00.000Z', 3 + PROMPT_JUMP)],
      });
      expect(given.dermatologist).toBeNull();
      expect(textOf(given).at(-1)).toBe(
        `The app also watches your scans for a fast, large change (within ${FAST_CHANGE.withinDays} days, at least ${FAST_CHANGE.minPoints} points and more than ${FAST_CHANGE.floorMultiple} times what a new photo alone can move a score): it found none.`,
      );
    });

    it('is never raised by a light-dependent score alone: shine from 0 to 16 in a week, or further', () => {
      const dull = scanOf('dull', '2026-11-18T10:00:00.000Z', { overall: { shine: 0 }, rightCheek: { shine: 0 } });
      const shineTo = (value: number, more: Parameters<typeof scanOf>[2] = {}) =>
        scanOf('shiny', '2026-11-25T10:00:00.000Z', {
          overall: { shine: value },
          rightCheek: { shine: value },
          ...more,
        });
      const faceShine = (scan: ReturnType<typeof scanOf>) =>
        compareAnalyses(dull.analysis, scan.analysis).find(
          (change) => change.metric === 'shine' && change.place === 'overall',
        )!;
      const large = (change: ReturnType<typeof faceShine>) =>
        Math.abs(change.delta) >= Math.max(FAST_CHANGE.floorMultiple * change.floor, FAST_CHANGE.minPoints);

      // 0 → 16 on the whole face: a real change the wrong way ("more shine"), between scans taken alike.
      const sixteen = shineTo(16);
      expect(faceShine(sixteen).verdict).toBe('worse');
      // 0 → 40: past the prompt's size too, so only its metric (shine moves with the lamp) keeps it out.
      const forty = shineTo(40);
      expect(faceShine(forty).verdict).toBe('worse');
      expect(large(faceShine(forty))).toBe(true);
      // Dark circles, the other metric the light moves, with it.
      const darker = shineTo(40, { eyeArea: { darkCircles: 60 } });

      for (const after of [sixteen, forty, darker]) {
        expect(fastChanges([after, dull])).toEqual([]);
        // Neither the consultation nor the routine page (both show fastChangePrompt) raises the banner.
        expect(fastChangePrompt([after, dull])).toBeNull();
        expect(answer('dermatologist', { profile: PROFILE, scans: [after, dull] }).dermatologist).toBeNull();
        expect(answer('changes', { profile: PROFILE, scans: [after, dull] }).dermatologist).toBeNull();
      }
      // The same week with redness jumping as far on the chin does raise it.
      const red = shineTo(40, { chin: { redness: 3 + PROMPT_JUMP } });
      const calm = scanOf('calm', '2026-11-18T10:00:00.000Z', {
        overall: { shine: 0 },
        rightCheek: { shine: 0 },
        chin: { redness: 3 },
      });
      expect(read(fastChangePrompt([red, calm])!)).toMatch(/^Redness on your chin/);
    });

    it('compares the newest scan with every scan of the last two weeks', () => {
      const middle = scanOf('middle', '2026-11-22T10:00:00.000Z', { chin: { redness: 3 + PROMPT_JUMP - 5 } });
      const newest = jump('2026-11-25T10:00:00.000Z', 3 + PROMPT_JUMP);
      // middle → newest is small; 3 → newest (7 days) is not.
      expect(fastChanges([newest, middle, before]).map((found) => found.before.id)).toEqual(['before']);
    });

    it('always comes for a sign the app cannot judge', () => {
      const given = answer('unusualSign', { profile: undefined, scans: [] });
      expect(read(given.dermatologist!)).toBe(
        'Please show it to a dermatologist or your doctor: only an examination can tell what it is.',
      );
      expect(textOf(given)).toContain('a spot that bleeds, crusts or does not heal;');
    });
  });

  it('say what the routine does about the marked zone and each concern', () => {
    const text = textOf(answer('routine', { profile: PROFILE, scans: [SAMPLE] }));
    expect(text).toContain(
      'Shine on your nose (50/100): the gentle gel cleanser, the niacinamide serum, and the BHA exfoliant.',
    );
    expect(text).toContain('“Shine”: the niacinamide serum and the BHA exfoliant.');
    expect(text).toContain('“Dryness”: the hydrating serum.');
    expect(text.at(-1)).toMatch(/^Give a routine 6 to 8 weeks/);
  });

  it('answer a concern with its scores, its trend and its steps, or say the photo cannot measure it', () => {
    const rise = Math.ceil(FACE_SHINE) + 1;
    const before = scanOf('before', '2026-11-18T10:00:00.000Z', { overall: { shine: 14.5 - rise } });
    const shine = textOf(answer('concern:shine', { profile: PROFILE, scans: [before, SAMPLE] }));
    expect(shine[0]).toBe(
      'Your scan of November 25, 2026 reads 15/100 for shine on the whole face, and this score stands out on your nose, at 50/100.',
    );
    expect(shine[1]).toMatch(/^The bridge and the tip of the nose/);
    expect(shine[2]).toBe(`Shine on the whole face: ${Math.round(14.5 - rise)} → 15/100, more shine: worse.`);
    expect(shine[3]).toBe(
      'The steps of your routine for it: the gentle gel cleanser, the niacinamide serum, and the BHA exfoliant.',
    );
    const dryness = textOf(answer('concern:dryness', { profile: PROFILE, scans: [SAMPLE] }));
    expect(dryness[0]).toBe('A photo cannot measure dryness or hydration: your routine uses your answer instead.');
  });

  it('explain "no real change" in plain words when asked, with the measured floor of redness', () => {
    const text = textOf(answer('whyNoRealChange', { profile: undefined, scans: [] }));
    expect(text).toHaveLength(3);
    expect(text[1]).toContain(
      `For redness on the whole face it is about ${num(noiseFloor('redness', 'overall')!)} points`,
    );
    expect(text[2]).toMatch(/we call it “no real change”/);
    expect(textOf(answer('whyNoRealChange', { profile: undefined, scans: [] }), 'fr')[2]).toMatch(
      /nous l'appelons «\u00a0pas de vrai changement\u00a0»/,
    );
  });

  it('give the measured noise floors when asked how far to trust the numbers', () => {
    const text = textOf(answer('reliability', { profile: PROFILE, scans: [SAMPLE] }));
    const redness = noiseFloor('redness', 'overall')!;
    const circles = noiseFloor('darkCircles', 'overall')!;
    const points = (value: number) => (value === 1 ? 'point' : 'points');
    expect(text).toContain(`Redness: ${num(redness)} ${points(redness)}`);
    expect(text).toContain(`Dark circles: ${num(circles)} ${points(circles)}`);
    expect(textOf(answer('reliability', { profile: PROFILE, scans: [SAMPLE] }), 'fr')).toContain(
      `Cernes : ${num(circles, 'fr')} ${points(circles)}`,
    );
  });

  it('read in both languages, with every value, for every question and history', () => {
    const histories = [
      [],
      [SAMPLE],
      [scanOf('before', '2026-11-18T10:00:00.000Z', { chin: { redness: 3 }, nose: { shine: 10 } }), SAMPLE],
    ];
    for (const profile of [undefined, PROFILE, profileOf({ concerns: ['redness', 'blemishes', 'fine-lines'] })])
      for (const scans of histories)
        for (const question of questions({ profile, scans })) {
          const given = answer(question.id, { profile, scans });
          for (const lang of ['en', 'fr'] as const) {
            read(question.text, lang);
            for (const text of textOf(given, lang)) expect(text).not.toMatch(/\{\{|undefined|NaN/);
            if (given.dermatologist) read(given.dermatologist, lang);
          }
        }
  });
});

describe('the words', () => {
  // Cosmetic terms only (docs/product/web-app.md#the-promise): no condition is named, in either language.
  const DIAGNOSES =
    /\b(acne|acné|rosacea|rosacée|melasma|mélasma|eczema|eczéma|psoriasis|dermatitis|dermatite|melanoma|mélanome|cancer|carcinoma|carcinome|cure|guérir|infection)\b/i;
  for (const lang of ['en', 'fr'] as const) {
    it(`of the consultation and the routine name no condition (${lang})`, () => {
      const file = JSON.parse(readFileSync(new URL(`../i18n/${lang}/studio.json`, import.meta.url), 'utf8')) as Record<
        string,
        unknown
      >;
      const texts = JSON.stringify([file.consultation, file.routine]);
      expect(texts).not.toMatch(DIAGNOSES);
    });
  }
});
