import { describe, expect, it } from 'vitest';
import { type ConsultationProfile, consultationProfileSchema } from './profile.ts';

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
