import { PAYOUT_DAY_OF_MONTH } from '@skanova/shared/affiliate/programme';
import type { CommissionWhy, RewardRuleTerms } from '@skanova/shared/rewards/functions';
import { ordinalDay } from './format';

// A reward rule and a commission's "why this amount" in words (docs/product/money.md#operators-groups-rules-and-campaigns):
// the affiliate's dashboard and terms page write out a rule that is not the specification's, the
// console writes out each group's versions and each commission's pricing. The sentences are i18n
// templates of the `affiliate` namespace (both languages); amounts, percentages and counts are
// formatted here in the page's language. Rendered in the browser only (signed-in pages), so Intl is
// safe: nothing here is prerendered.

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** An amount of a rule: "$2" when whole, "$2.50" otherwise ("2 $US", "2,50 $US" in French). */
export function ruleAmount(cents: number, lang: string): string {
  const whole = cents % 100 === 0;
  return new Intl.NumberFormat(lang, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(cents / 100);
}

/** Basis points as a percentage with up to two decimals: 3000 → "30%" (en), "30 %" (fr); 1250 → "12.5%". */
export function rulePercent(basisPoints: number, lang: string): string {
  return new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 2 }).format(basisPoints / 10_000);
}

/** The rule's commission, its hold and its payout, one sentence each. */
export function ruleInWords(rule: RewardRuleTerms, t: Translate, lang: string): string[] {
  const sentences: string[] = [];
  if (rule.kind === 'flat') {
    const [first, ...later] = rule.tiers ?? [];
    const amount = ruleAmount(first?.cents ?? 0, lang);
    if (later.length === 0) sentences.push(t('affiliate:rule.flatOne', { amount }));
    else {
      const steps = new Intl.ListFormat(lang, { type: 'conjunction' }).format(
        later.map((step) => t('affiliate:rule.flatStep', { amount: ruleAmount(step.cents, lang), count: step.from })),
      );
      sentences.push(t('affiliate:rule.flatSteps', { amount, steps }));
    }
  } else {
    const percent = rulePercent(rule.percentBasisPoints ?? 0, lang);
    sentences.push(
      rule.recurringMonths === null
        ? t('affiliate:rule.percentageFirst', { percent })
        : t('affiliate:rule.percentageRecurring', { percent, count: rule.recurringMonths }),
    );
  }
  sentences.push(
    rule.holdDays === 0 ? t('affiliate:rule.holdNone') : t('affiliate:rule.hold', { count: rule.holdDays }),
  );
  const day = ordinalDay(PAYOUT_DAY_OF_MONTH, lang);
  sentences.push(
    rule.minimumPayoutCents === 0
      ? t('affiliate:rule.minimumNone', { day })
      : t('affiliate:rule.minimum', { day, minimum: ruleAmount(rule.minimumPayoutCents, lang) }),
  );
  return sentences;
}

/** The next step of a flat rule from `qualified` conversions: how many more, and what it pays. */
export function nextStep(rule: RewardRuleTerms, qualified: number): { count: number; amount: number } | null {
  if (rule.kind !== 'flat') return null;
  const step = (rule.tiers ?? []).find((tier) => tier.from > qualified);
  return step ? { count: step.from - qualified, amount: step.cents } : null;
}

/** The rule that priced a commission: "default rule v1", "creators v2", or the affiliate's "rule v2". */
function ruleName(why: CommissionWhy, t: Translate): string {
  const version = why.ruleVersion;
  if (why.defaultGroup) return t('affiliate:why.defaultRule', { version });
  return why.groupName === null
    ? t('affiliate:why.ownRule', { version })
    : t('affiliate:why.namedRule', { name: why.groupName, version });
}

/**
 * Why a commission is its amount: "$2 — default rule v1, 12 qualified conversions before it (step 1
 * of 2)", "30% of $8.49 proceeds — creators v2", "campaign rate #3: $10".
 */
export function commissionInWords(amountCents: number, why: CommissionWhy, t: Translate, lang: string): string {
  const amount = ruleAmount(amountCents, lang);
  const rule = ruleName(why, t);
  const pricing = why.pricing;
  switch (pricing?.kind) {
    case 'flat':
      if (pricing.steps <= 1 || pricing.step === null) return t('affiliate:why.flat', { amount, rule });
      return pricing.qualifiedBefore === null
        ? t('affiliate:why.flatStep', { amount, rule, step: pricing.step, steps: pricing.steps })
        : t('affiliate:why.flatCounted', {
            amount,
            rule,
            count: pricing.qualifiedBefore,
            step: pricing.step,
            steps: pricing.steps,
          });
    case 'percentage':
      return t('affiliate:why.percentage', {
        percent: rulePercent(pricing.percentBasisPoints, lang),
        proceeds: ruleAmount(pricing.proceedsCents, lang),
        rule,
      });
    case 'campaign':
      return pricing.percentBasisPoints === null
        ? t('affiliate:why.campaignFlat', { id: pricing.campaignRateId, amount })
        : t('affiliate:why.campaignPercentage', {
            id: pricing.campaignRateId,
            percent: rulePercent(pricing.percentBasisPoints, lang),
            proceeds: ruleAmount(pricing.proceedsCents ?? 0, lang),
          });
    default:
      return t('affiliate:why.flat', { amount, rule });
  }
}
