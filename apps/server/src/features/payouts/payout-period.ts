import { latestPayday } from '@skanova/shared/payouts/payday';
import { payoutCutoff } from '@skanova/shared/payouts/payout-schedule';

// A payday and what it pays (docs/product/money.md#payment-timing): the 15th of a month pays what was approved before
// 00:00 UTC on the 1st of that month; its payouts are labelled with the previous calendar month.

export interface PayoutPeriod {
  /** YYYY-MM-15. */
  payday: string;
  /** Rows approved (or adjustments made) before this instant are paid on the payday. */
  cutoff: Date;
  /** First and last day of the month before the payday's, YYYY-MM-DD. */
  periodStart: string;
  periodEnd: string;
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/** The period of `payday` (a YYYY-MM-15 already validated). */
export function payoutPeriod(payday: string): PayoutPeriod {
  const paydayDate = new Date(`${payday}T00:00:00.000Z`);
  const cutoff = payoutCutoff(paydayDate);
  const year = cutoff.getUTCFullYear();
  const month = cutoff.getUTCMonth();
  return {
    payday,
    cutoff,
    periodStart: day(new Date(Date.UTC(year, month - 1, 1))),
    // Day 0 of a month is the last day of the month before.
    periodEnd: day(new Date(Date.UTC(year, month, 0))),
  };
}

/**
 * The latest payday due at `now` (its 15th at 00:00 UTC reached), YYYY-MM-DD: the scheduler runs
 * `runPayouts(app, paydayFor(now))` on every tick; once that payday's run is done, the call answers
 * at once without doing anything, until the next 15th.
 */
export function paydayFor(now: Date): string {
  return latestPayday(now);
}

/** Whether `payday` has come (its 00:00 UTC is not after `now`): a later one cannot be run yet. */
export function isPaydayDue(payday: string, now: Date): boolean {
  return new Date(`${payday}T00:00:00.000Z`).getTime() <= now.getTime();
}
