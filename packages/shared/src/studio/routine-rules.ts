import type { MetricId } from '@skanova/skin/contract';
import type { Place } from '@skanova/skin/trend';
import type { AgeBand, Concern, RoutineProduct, Sensitivity, SkinType, SunExposure } from './profile.ts';

// The routine's rules, as data (docs/product/web-app.md#routines): which steps a morning and an evening routine hold, for
// which answers of the questionnaire and which results of the latest scan, and why — each rule's
// reason is an i18n key (group `routine.reasons`) that the page fills with the visitor's own numbers.
// Then the safety rules, data too. `routines.ts` applies them; nothing here names a brand: steps are
// product types and active ingredients.
//
// Bump ROUTINE_RULES_VERSION when the tables change: a routine shown under other rules is not compared
// with a new one (its differences would be ours, not the visitor's).

export const ROUTINE_RULES_VERSION = 1;

export const ROUTINE_TIMES = ['morning', 'evening'] as const;
export type RoutineTime = (typeof ROUTINE_TIMES)[number];

/** Where a step goes in a routine, in the order they are applied. */
export const STEP_SLOTS = ['precleanse', 'cleanse', 'treat', 'eye', 'moisturise', 'protect'] as const;
export type StepSlot = (typeof STEP_SLOTS)[number];
/** Slots holding one product: the candidate with the highest priority wins (a routine has one cleanser). */
export const SINGLE_SLOTS: readonly StepSlot[] = ['precleanse', 'cleanse', 'eye', 'moisturise', 'protect'];

/**
 * What a step's product does, as far as the safety rules care:
 * - `active`: a treatment ingredient (the number per routine is limited by sensitivity);
 * - `strong`: likely to sting or irritate a reactive skin;
 * - `exfoliating`: speeds up the shedding of the surface (acids, retinoids): one per routine;
 * - `retinoid`: a vitamin A derivative (not before 18);
 * - `photosensitising`: makes the skin more sensitive to the sun (asks for SPF 50).
 */
export type StepTag = 'active' | 'strong' | 'exfoliating' | 'retinoid' | 'photosensitising';

export const INGREDIENTS = [
  'niacinamide',
  'azelaic-acid',
  'vitamin-c',
  'retinoid',
  'salicylic-acid',
  'lactic-glycolic-acid',
  'hyaluronic-acid',
  'glycerin',
  'ceramides',
  'panthenol',
  'caffeine',
  'uv-filters',
  'mineral-filters',
] as const;
export type Ingredient = (typeof INGREDIENTS)[number];

/** How often a step is used: every time, or a few evenings a week to start with. */
export type StepFrequency = 'daily' | 'someEvenings';

export interface StepDefinition {
  readonly id: string;
  readonly slot: StepSlot;
  readonly times: readonly RoutineTime[];
  /** The active or key ingredients to look for on the label. */
  readonly ingredients: readonly Ingredient[];
  readonly tags: readonly StepTag[];
  readonly frequency: StepFrequency;
  /** How to use it safely (`routine.cautions.<key>`), when there is something to say. */
  readonly caution?: string;
}

/**
 * Every step a routine can hold, in the order they are applied within a slot. The product type's
 * name is `routine.steps.<id>`.
 */
export const STEPS = [
  {
    id: 'cleansing-balm',
    slot: 'precleanse',
    times: ['evening'],
    ingredients: [],
    tags: [],
    frequency: 'daily',
  },
  {
    id: 'cleanser-gentle',
    slot: 'cleanse',
    times: ['morning', 'evening'],
    ingredients: ['glycerin'],
    tags: [],
    frequency: 'daily',
  },
  {
    id: 'cleanser-gel',
    slot: 'cleanse',
    times: ['morning', 'evening'],
    ingredients: ['glycerin'],
    tags: [],
    frequency: 'daily',
  },
  {
    id: 'vitamin-c-serum',
    slot: 'treat',
    times: ['morning'],
    ingredients: ['vitamin-c'],
    tags: ['active', 'strong'],
    frequency: 'daily',
    caution: 'vitaminC',
  },
  {
    id: 'niacinamide-serum',
    slot: 'treat',
    times: ['morning', 'evening'],
    ingredients: ['niacinamide'],
    tags: ['active'],
    frequency: 'daily',
  },
  {
    id: 'hydrating-serum',
    slot: 'treat',
    times: ['morning', 'evening'],
    ingredients: ['hyaluronic-acid', 'glycerin'],
    tags: [],
    frequency: 'daily',
  },
  {
    id: 'azelaic-acid',
    slot: 'treat',
    times: ['evening'],
    ingredients: ['azelaic-acid'],
    tags: ['active'],
    frequency: 'daily',
    caution: 'azelaic',
  },
  {
    id: 'retinoid',
    slot: 'treat',
    times: ['evening'],
    ingredients: ['retinoid'],
    tags: ['active', 'strong', 'exfoliating', 'retinoid', 'photosensitising'],
    frequency: 'someEvenings',
    caution: 'retinoid',
  },
  {
    id: 'aha-exfoliant',
    slot: 'treat',
    times: ['evening'],
    ingredients: ['lactic-glycolic-acid'],
    tags: ['active', 'strong', 'exfoliating', 'photosensitising'],
    frequency: 'someEvenings',
    caution: 'acid',
  },
  {
    id: 'bha-exfoliant',
    slot: 'treat',
    times: ['evening'],
    ingredients: ['salicylic-acid'],
    tags: ['active', 'strong', 'exfoliating'],
    frequency: 'someEvenings',
    caution: 'acid',
  },
  {
    id: 'eye-cream',
    slot: 'eye',
    times: ['morning'],
    ingredients: ['caffeine'],
    tags: [],
    frequency: 'daily',
  },
  {
    id: 'moisturiser-light',
    slot: 'moisturise',
    times: ['morning', 'evening'],
    ingredients: ['glycerin'],
    tags: [],
    frequency: 'daily',
  },
  {
    id: 'moisturiser-rich',
    slot: 'moisturise',
    times: ['morning', 'evening'],
    ingredients: ['ceramides', 'glycerin'],
    tags: [],
    frequency: 'daily',
  },
  {
    id: 'moisturiser-soothing',
    slot: 'moisturise',
    times: ['morning', 'evening'],
    ingredients: ['panthenol', 'ceramides'],
    tags: [],
    frequency: 'daily',
  },
  { id: 'spf-30', slot: 'protect', times: ['morning'], ingredients: ['uv-filters'], tags: [], frequency: 'daily' },
  {
    id: 'spf-50',
    slot: 'protect',
    times: ['morning'],
    ingredients: ['uv-filters'],
    tags: [],
    frequency: 'daily',
    caution: 'sunscreen',
  },
  {
    id: 'spf-mineral-50',
    slot: 'protect',
    times: ['morning'],
    ingredients: ['mineral-filters'],
    tags: [],
    frequency: 'daily',
    caution: 'sunscreen',
  },
] as const satisfies readonly StepDefinition[];

export type StepId = (typeof STEPS)[number]['id'];

/** A condition on the profile, the latest scan, or the other steps; a rule holds when all of its do. */
export type Condition =
  | { readonly kind: 'always' }
  | { readonly kind: 'concern'; readonly concern: Concern }
  | { readonly kind: 'skinType'; readonly among: readonly SkinType[] }
  | { readonly kind: 'sensitivity'; readonly among: readonly Sensitivity[] }
  | { readonly kind: 'sun'; readonly among: readonly SunExposure[] }
  | { readonly kind: 'age'; readonly among: readonly AgeBand[] }
  /** The visitor already uses this kind of product. */
  | { readonly kind: 'uses'; readonly product: RoutineProduct }
  /** The latest scan's score is marked (scan-results MARKED_FROM) in one of these zones. */
  | { readonly kind: 'metric'; readonly metric: MetricId; readonly places: readonly Place[] }
  /** Another step of the routine carries this tag (rules applied after the others). */
  | { readonly kind: 'withStep'; readonly tag: StepTag };

export interface RoutineRule {
  readonly id: string;
  readonly step: StepId;
  readonly when: readonly Condition[];
  /** Which step wins a single slot, and which actives stay when a safety rule limits them. */
  readonly priority: number;
  /** Why the step is there: `routine.reasons.<reason>`, filled with the conditions' values. */
  readonly reason: string;
}

const always = { kind: 'always' } as const;
const concern = (which: Concern) => ({ kind: 'concern', concern: which }) as const;
const metric = (which: MetricId, places: readonly Place[]) => ({ kind: 'metric', metric: which, places }) as const;

/** Where redness and evenness are looked at (the lip contour's redness floor is 4.8: too noisy to act on). */
const FACE_ZONES: readonly Place[] = ['forehead', 'leftCheek', 'rightCheek', 'nose', 'chin'];
/** The T-zone, where shine gathers. */
const T_ZONE: readonly Place[] = ['forehead', 'nose', 'chin'];

export const ROUTINE_RULES: readonly RoutineRule[] = [
  // Cleanse: everyone, the formula by skin type and shine.
  { id: 'cleanse-everyone', step: 'cleanser-gentle', when: [always], priority: 1, reason: 'cleanseEveryone' },
  {
    id: 'cleanse-dry',
    step: 'cleanser-gentle',
    when: [{ kind: 'skinType', among: ['dry'] }],
    priority: 3,
    reason: 'cleanseDry',
  },
  {
    id: 'cleanse-sensitive',
    step: 'cleanser-gentle',
    when: [{ kind: 'sensitivity', among: ['often'] }],
    priority: 5,
    reason: 'cleanseSensitive',
  },
  {
    id: 'cleanse-oily',
    step: 'cleanser-gel',
    when: [{ kind: 'skinType', among: ['oily', 'combination'] }],
    priority: 3,
    reason: 'cleanseOily',
  },
  { id: 'cleanse-shine', step: 'cleanser-gel', when: [metric('shine', T_ZONE)], priority: 2, reason: 'cleanseShine' },
  {
    id: 'precleanse-sun',
    step: 'cleansing-balm',
    when: [{ kind: 'sun', among: ['high'] }],
    priority: 2,
    reason: 'precleanseSun',
  },
  // Treat.
  {
    id: 'vitamin-c-tone',
    step: 'vitamin-c-serum',
    when: [concern('uneven-tone')],
    priority: 3,
    reason: 'vitaminCTone',
  },
  {
    id: 'vitamin-c-evenness',
    step: 'vitamin-c-serum',
    when: [metric('evenness', FACE_ZONES)],
    priority: 2,
    reason: 'vitaminCEvenness',
  },
  {
    id: 'vitamin-c-sun',
    step: 'vitamin-c-serum',
    when: [{ kind: 'sun', among: ['high'] }],
    priority: 1,
    reason: 'vitaminCSun',
  },
  {
    id: 'niacinamide-redness',
    step: 'niacinamide-serum',
    when: [concern('redness')],
    priority: 3,
    reason: 'niacinamideRedness',
  },
  {
    id: 'niacinamide-redness-scan',
    step: 'niacinamide-serum',
    when: [metric('redness', FACE_ZONES)],
    priority: 3,
    reason: 'niacinamideRednessScan',
  },
  {
    id: 'niacinamide-shine',
    step: 'niacinamide-serum',
    when: [concern('shine')],
    priority: 2,
    reason: 'niacinamideShine',
  },
  {
    id: 'niacinamide-shine-scan',
    step: 'niacinamide-serum',
    when: [metric('shine', T_ZONE)],
    priority: 2,
    reason: 'niacinamideShineScan',
  },
  {
    id: 'niacinamide-blemishes',
    step: 'niacinamide-serum',
    when: [concern('blemishes')],
    priority: 2,
    reason: 'niacinamideBlemishes',
  },
  {
    id: 'hydrating-dryness',
    step: 'hydrating-serum',
    when: [concern('dryness')],
    priority: 3,
    reason: 'hydratingDryness',
  },
  {
    id: 'hydrating-dry',
    step: 'hydrating-serum',
    when: [{ kind: 'skinType', among: ['dry'] }],
    priority: 2,
    reason: 'hydratingDry',
  },
  {
    id: 'azelaic-redness-scan',
    step: 'azelaic-acid',
    when: [metric('redness', FACE_ZONES)],
    priority: 3,
    reason: 'azelaicRednessScan',
  },
  { id: 'azelaic-redness', step: 'azelaic-acid', when: [concern('redness')], priority: 2, reason: 'azelaicRedness' },
  { id: 'azelaic-tone', step: 'azelaic-acid', when: [concern('uneven-tone')], priority: 2, reason: 'azelaicTone' },
  {
    id: 'azelaic-blemishes',
    step: 'azelaic-acid',
    when: [concern('blemishes')],
    priority: 2,
    reason: 'azelaicBlemishes',
  },
  { id: 'retinoid-lines', step: 'retinoid', when: [concern('fine-lines')], priority: 3, reason: 'retinoidLines' },
  { id: 'retinoid-texture', step: 'retinoid', when: [concern('texture')], priority: 2, reason: 'retinoidTexture' },
  {
    id: 'retinoid-uses',
    step: 'retinoid',
    when: [{ kind: 'uses', product: 'retinoid' }],
    priority: 4,
    reason: 'retinoidUses',
  },
  { id: 'aha-texture', step: 'aha-exfoliant', when: [concern('texture')], priority: 3, reason: 'ahaTexture' },
  {
    id: 'aha-texture-scan',
    step: 'aha-exfoliant',
    when: [metric('texture', FACE_ZONES)],
    priority: 2,
    reason: 'ahaTextureScan',
  },
  { id: 'aha-tone', step: 'aha-exfoliant', when: [concern('uneven-tone')], priority: 1, reason: 'ahaTone' },
  { id: 'bha-blemishes', step: 'bha-exfoliant', when: [concern('blemishes')], priority: 3, reason: 'bhaBlemishes' },
  { id: 'bha-shine', step: 'bha-exfoliant', when: [concern('shine')], priority: 2, reason: 'bhaShine' },
  {
    id: 'bha-shine-scan',
    step: 'bha-exfoliant',
    when: [metric('shine', T_ZONE)],
    priority: 3,
    reason: 'bhaShineScan',
  },
  // Eye area.
  { id: 'eye-concern', step: 'eye-cream', when: [concern('dark-circles')], priority: 3, reason: 'eyeConcern' },
  { id: 'eye-scan', step: 'eye-cream', when: [metric('darkCircles', ['eyeArea'])], priority: 2, reason: 'eyeScan' },
  { id: 'eye-uses', step: 'eye-cream', when: [{ kind: 'uses', product: 'eye-cream' }], priority: 1, reason: 'eyeUses' },
  // Moisturise: everyone, the texture by skin type and sensitivity.
  { id: 'moisturise-everyone', step: 'moisturiser-light', when: [always], priority: 1, reason: 'moisturiseEveryone' },
  {
    id: 'moisturise-oily',
    step: 'moisturiser-light',
    when: [{ kind: 'skinType', among: ['oily', 'combination'] }],
    priority: 3,
    reason: 'moisturiseOily',
  },
  {
    id: 'moisturise-dry',
    step: 'moisturiser-rich',
    when: [{ kind: 'skinType', among: ['dry'] }],
    priority: 3,
    reason: 'moisturiseDry',
  },
  {
    id: 'moisturise-dryness',
    step: 'moisturiser-rich',
    when: [concern('dryness')],
    priority: 3,
    reason: 'moisturiseDryness',
  },
  {
    id: 'moisturise-sensitive',
    step: 'moisturiser-soothing',
    when: [{ kind: 'sensitivity', among: ['often'] }],
    priority: 5,
    reason: 'moisturiseSensitive',
  },
  // Protect: every morning; SPF 50 for more sun, uneven tone, or a step that sensitises to it.
  { id: 'protect-everyone', step: 'spf-30', when: [always], priority: 1, reason: 'protectEveryone' },
  {
    id: 'protect-sun',
    step: 'spf-50',
    when: [{ kind: 'sun', among: ['high'] }],
    priority: 3,
    reason: 'protectSun',
  },
  { id: 'protect-tone', step: 'spf-50', when: [concern('uneven-tone')], priority: 3, reason: 'protectTone' },
  {
    id: 'protect-evenness-scan',
    step: 'spf-50',
    when: [metric('evenness', FACE_ZONES)],
    priority: 2,
    reason: 'protectEvennessScan',
  },
  {
    id: 'protect-photosensitising',
    step: 'spf-50',
    when: [{ kind: 'withStep', tag: 'photosensitising' }],
    priority: 3,
    reason: 'protectPhotosensitising',
  },
  {
    id: 'protect-sensitive',
    step: 'spf-mineral-50',
    when: [{ kind: 'sensitivity', among: ['often'] }],
    priority: 5,
    reason: 'protectSensitive',
  },
];

/**
 * The safety rules, applied after the rules above, in this order:
 * - `exclude`: when the conditions hold, no step carrying `tag`;
 * - `limit`: when they hold, at most `max` steps carrying `tag` in each routine (morning, evening),
 *   the highest priorities kept.
 * Each says why (`routine.safety.<reason>`); a step they take out is listed as left out, with it.
 */
export type SafetyRule =
  | {
      readonly id: string;
      readonly kind: 'exclude';
      readonly when: readonly Condition[];
      readonly tag: StepTag;
      readonly reason: string;
    }
  | {
      readonly id: string;
      readonly kind: 'limit';
      readonly when: readonly Condition[];
      readonly tag: StepTag;
      readonly max: number;
      readonly reason: string;
    };

export const SAFETY_RULES: readonly SafetyRule[] = [
  // Retinoids are for adults: under 18 the routine has none, even if the visitor uses one.
  {
    id: 'no-retinoid-under-18',
    kind: 'exclude',
    when: [{ kind: 'age', among: ['13-17'] }],
    tag: 'retinoid',
    reason: 'teenRetinoid',
  },
  // A skin that reacts often gets no ingredient known to sting (acids, retinoids, pure vitamin C).
  {
    id: 'sensitive-no-strong',
    kind: 'exclude',
    when: [{ kind: 'sensitivity', among: ['often'] }],
    tag: 'strong',
    reason: 'sensitiveStrong',
  },
  // Two exfoliating actives in one routine (an acid and a retinoid, two acids) irritate: one only.
  { id: 'one-exfoliant', kind: 'limit', when: [always], tag: 'exfoliating', max: 1, reason: 'oneExfoliant' },
  // Fewer actives the more reactive the skin: 1 per routine when it reacts often, 2 sometimes (the
  // catalogue puts at most 3 in one routine: niacinamide, azelaic acid and one exfoliant).
  {
    id: 'actives-often',
    kind: 'limit',
    when: [{ kind: 'sensitivity', among: ['often'] }],
    tag: 'active',
    max: 1,
    reason: 'activesSensitive',
  },
  {
    id: 'actives-sometimes',
    kind: 'limit',
    when: [{ kind: 'sensitivity', among: ['sometimes'] }],
    tag: 'active',
    max: 2,
    reason: 'activesSometimes',
  },
];

export function stepById(id: StepId): StepDefinition {
  return STEPS.find((step) => step.id === id)!;
}
