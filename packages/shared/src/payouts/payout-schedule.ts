import { MINIMUM_PAYOUT_CENTS, PAYOUT_DAY_OF_MONTH } from '../affiliate/programme.ts';

// The one payment-timing rule (docs/product/money.md#payment-timing): earnings approved in a month are paid on the 15th of
// the following month when the unpaid approved balance is at least $20; otherwise they roll over.
// Terms, FAQ and dashboard all phrase it from these values.

export const PAYMENT_TIMING = {
  payoutDay: PAYOUT_DAY_OF_MONTH,
  minimumPayoutCents: MINIMUM_PAYOUT_CENTS,
} as const;

/** The next payday strictly after `now` (UTC midnight of the 15th). */
export function nextPayoutDate(now: Date): Date {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const thisMonth = new Date(Date.UTC(year, month, PAYOUT_DAY_OF_MONTH));
  return now.getTime() < thisMonth.getTime() ? thisMonth : new Date(Date.UTC(year, month + 1, PAYOUT_DAY_OF_MONTH));
}

/** Commissions approved before this instant are paid on `payday` (00:00 UTC on the 1st of its month). */
export function payoutCutoff(payday: Date): Date {
  return new Date(Date.UTC(payday.getUTCFullYear(), payday.getUTCMonth(), 1));
}

/**
 * The payday that pays a commission approved at `approvedAt`, seen at `now`: the 15th of the month
 * after its approval (the cut-off is the 1st), or the next payday if that one has passed. It is paid
 * then if the balance reaches the minimum; otherwise it rolls over.
 */
export function paydayAfterApproval(approvedAt: Date, now: Date): Date {
  const after = new Date(Date.UTC(approvedAt.getUTCFullYear(), approvedAt.getUTCMonth() + 1, PAYOUT_DAY_OF_MONTH));
  const next = nextPayoutDate(now);
  return after.getTime() > next.getTime() ? after : next;
}
