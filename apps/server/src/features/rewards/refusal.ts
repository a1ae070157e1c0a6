import { REWARDS_REFUSALS, type RewardsRefusal } from '@skanova/shared/rewards/schemas';
import { CallableError } from '../../lib/callable-error.ts';

// A refusal the database decides (docs/product/money.md#operators-groups-rules-and-campaigns): the
// protocol's `invalid-argument` with the field and its message key (ADR 009), thrown inside the
// transaction so that nothing of the request is written.

const MESSAGES: Record<RewardsRefusal, string> = {
  idTaken: 'A group with this id already exists.',
  groupUnknown: 'No such group.',
  groupArchived: 'This group is archived.',
  defaultKept: 'The default group cannot be archived.',
  hasAffiliates: 'This group still has affiliates: move them to another group first.',
  effectiveInPast: 'A rule version cannot take effect in the past.',
  effectiveBeforePrevious: "A rule version cannot take effect before the group's latest version.",
  sameGroup: 'The affiliate is already in this group.',
  noRuleInForce: 'This group has no rule in force yet.',
  codeUnknown: 'No such referral code.',
  startsInPast: 'A campaign rate cannot start before today.',
  overlap: 'This range overlaps another campaign rate of the code.',
  tooMany: 'This code holds the most campaign rates it may.',
  rateUnknown: 'No such campaign rate.',
  rateUsed: 'A commission was priced by this campaign rate: it cannot be deleted.',
};

export function refusal(reason: RewardsRefusal): CallableError {
  return new CallableError('invalid-argument', MESSAGES[reason], {
    code: reason.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`),
    fields: [REWARDS_REFUSALS[reason]],
  });
}
