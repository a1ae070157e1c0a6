import { describe, expect, it } from 'vitest';
import { checkForm } from '../callable/field-errors.ts';
import en from '../i18n/en/studio.json' with { type: 'json' };
import fr from '../i18n/fr/studio.json' with { type: 'json' };
import { type ConsultationProfile, consultationFormSchema, consultationProfileSchema, profileOf } from './profile.ts';

const profile: ConsultationProfile = {
  version: 1,
  skinType: 'combination',
  sensitivity: 'sometimes',
  concerns: ['shine', 'redness'],
  sunExposure: 'moderate',
  currentRoutine: ['cleanser', 'sunscreen'],
  ageBand: '25-34',
  updatedAt: '2026-11-25T09:00:00.000Z',
};

describe('consultationProfileSchema', () => {
  it('accepts a complete profile', () => {
    expect(consultationProfileSchema.safeParse(profile).success).toBe(true);
  });

  it('refuses more than three concerns, repeated answers and unknown choices', () => {
    const refused = [
      { ...profile, concerns: ['shine', 'redness', 'texture', 'dryness'] },
      { ...profile, concerns: ['shine', 'shine'] },
      { ...profile, currentRoutine: ['cleanser', 'cleanser'] },
      { ...profile, skinType: 'greasy' },
      { ...profile, ageBand: '10-12' },
      { ...profile, version: 2 },
      { ...profile, updatedAt: 'yesterday' },
    ];
    for (const candidate of refused) expect(consultationProfileSchema.safeParse(candidate).success).toBe(false);
  });
});

describe('consultationFormSchema (the questionnaire, ADR 009)', () => {
  const { version: _version, updatedAt: _updatedAt, ...answers } = profile;
  const text = (file: unknown, key: string) =>
    key
      .replace(/^studio:/, '')
      .split('.')
      .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], file);

  it('accepts the answers, and makes a profile the stored schema accepts', () => {
    expect(checkForm(consultationFormSchema, answers).success).toBe(true);
    const made = profileOf(answers, new Date('2026-11-25T09:00:00.000Z'));
    expect(made).toEqual(profile);
    expect(consultationProfileSchema.safeParse(made).success).toBe(true);
  });

  it('answers each unanswered question and too many concerns with its own message, in both languages', () => {
    const checked = checkForm(consultationFormSchema, {
      concerns: ['shine', 'redness', 'texture', 'dryness'],
      currentRoutine: [],
    });
    expect(checked.errors).toEqual([
      { path: 'skinType', key: 'studio:consultation.errors.skinType' },
      { path: 'sensitivity', key: 'studio:consultation.errors.sensitivity' },
      { path: 'concerns', key: 'studio:consultation.errors.tooManyConcerns' },
      { path: 'sunExposure', key: 'studio:consultation.errors.sunExposure' },
      { path: 'ageBand', key: 'studio:consultation.errors.ageBand' },
    ]);
    const repeated = checkForm(consultationFormSchema, { ...answers, currentRoutine: ['cleanser', 'cleanser'] });
    expect(repeated.errors).toEqual([{ path: 'currentRoutine', key: 'studio:consultation.errors.repeated' }]);
    for (const error of [...checked.errors, ...repeated.errors])
      for (const file of [en, fr]) expect(typeof text(file, error.key)).toBe('string');
  });
});
