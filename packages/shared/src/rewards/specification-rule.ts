import {
  COMMISSION_HOLD_DAYS,
  MINIMUM_PAYOUT_CENTS,
  PREMIUM_COMMISSION_CENTS,
  PREMIUM_THRESHOLD,
  STANDARD_COMMISSION_CENTS,
} from '../affiliate/programme.ts';
import type { RewardRuleTerms } from './functions.ts';

// The specification's rule (docs/product/money.md#partner-groups-and-reward-rules): the default group's
// first version, which the site's texts print from the programme's constants. An affiliate under it
// reads those texts; under any other rule, the pages write their rule out (docs/product/money.md#operators-groups-rules-and-campaigns).

/** The specification's terms, from the programme's constants. */
export const SPECIFICATION_RULE: RewardRuleTerms = {
  kind: 'flat',
  tiers: [
    { from: 0, cents: STANDARD_COMMISSION_CENTS },
    { from: PREMIUM_THRESHOLD, cents: PREMIUM_COMMISSION_CENTS },
  ],
  percentBasisPoints: null,
  recurringMonths: null,
  holdDays: COMMISSION_HOLD_DAYS,
  minimumPayoutCents: MINIMUM_PAYOUT_CENTS,
};

/** Whether `terms` are the specification's, step for step. */
export function isSpecificationRule(terms: RewardRuleTerms): boolean {
  const spec = SPECIFICATION_RULE;
  return (
    terms.kind === spec.kind &&
    terms.holdDays === spec.holdDays &&
    terms.minimumPayoutCents === spec.minimumPayoutCents &&
    terms.percentBasisPoints === null &&
    terms.recurringMonths === null &&
    JSON.stringify(terms.tiers?.map(({ from, cents }) => ({ from, cents }))) === JSON.stringify(spec.tiers)
  );
}
