import * as z from 'zod/mini';
import { formSchema } from '../callable/field-errors.ts';

// The consultation's profile (docs/product/web-app.md#consultation): the visitor's answers to a short questionnaire, kept on
// their device only, editable at any time. The consultation and the routine rules read it with the
// latest scans. Every answer has an "unsure" or "none" choice so no question forces a guess.

export const SKIN_TYPES = ['dry', 'normal', 'combination', 'oily', 'unsure'] as const;
/** How often products sting, itch or redden the skin. */
export const SENSITIVITIES = ['rarely', 'sometimes', 'often'] as const;
/** What the visitor wants to work on (up to three), in cosmetic terms. */
export const CONCERNS = [
  'redness',
  'uneven-tone',
  'shine',
  'texture',
  'dark-circles',
  'dryness',
  'fine-lines',
  'blemishes',
] as const;
export const MAX_CONCERNS = 3;
/** Time spent outdoors in daylight on a usual day. */
export const SUN_EXPOSURES = ['low', 'moderate', 'high'] as const;
/** Product types the visitor already uses (any number; none is an empty list). */
export const ROUTINE_PRODUCTS = [
  'cleanser',
  'moisturiser',
  'sunscreen',
  'serum',
  'exfoliant',
  'retinoid',
  'eye-cream',
] as const;
/** Age bands: the app is for people of 13 and over (spec, EULA). */
export const AGE_BANDS = ['13-17', '18-24', '25-34', '35-44', '45-54', '55-plus'] as const;

export const PROFILE_VERSION = 1;

function distinct(values: readonly string[]): boolean {
  return new Set(values).size === values.length;
}

// The questionnaire's answers, one schema for the form (messages are keys of the `studio` namespace,
// ADR 009) and for the stored profile. A question left unanswered gets its own message.
const answers = {
  skinType: z.enum(SKIN_TYPES, 'consultation.errors.skinType'),
  sensitivity: z.enum(SENSITIVITIES, 'consultation.errors.sensitivity'),
  concerns: z
    .array(z.enum(CONCERNS))
    .check(
      z.maxLength(MAX_CONCERNS, 'consultation.errors.tooManyConcerns'),
      z.refine(distinct, 'consultation.errors.repeated'),
    ),
  sunExposure: z.enum(SUN_EXPOSURES, 'consultation.errors.sunExposure'),
  currentRoutine: z.array(z.enum(ROUTINE_PRODUCTS)).check(z.refine(distinct, 'consultation.errors.repeated')),
  ageBand: z.enum(AGE_BANDS, 'consultation.errors.ageBand'),
};

/** The questionnaire as the visitor fills it in (the browser's check, `checkForm`). */
export const consultationFormSchema = formSchema('studio', z.object(answers));
export type ConsultationAnswers = z.infer<typeof consultationFormSchema>;

// Written with `zod/mini`, like every schema the browser ships.
export const consultationProfileSchema = z.object({
  version: z.literal(PROFILE_VERSION),
  ...answers,
  /** When the answers were last changed, ISO 8601 UTC. */
  updatedAt: z.iso.datetime(),
});

export type ConsultationProfile = z.infer<typeof consultationProfileSchema>;
export type SkinType = (typeof SKIN_TYPES)[number];
export type Sensitivity = (typeof SENSITIVITIES)[number];
export type Concern = (typeof CONCERNS)[number];
export type SunExposure = (typeof SUN_EXPOSURES)[number];
export type RoutineProduct = (typeof ROUTINE_PRODUCTS)[number];
export type AgeBand = (typeof AGE_BANDS)[number];

/** The stored profile for a questionnaire just answered. */
export function profileOf(answers: ConsultationAnswers, now: Date): ConsultationProfile {
  return { version: PROFILE_VERSION, ...answers, updatedAt: now.toISOString() };
}
