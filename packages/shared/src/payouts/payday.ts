import { PAYOUT_DAY_OF_MONTH } from '../affiliate/programme.ts';

// The payday the payouts tab opens on: the latest 15th, today included (docs/product/money.md#payment-timing), so the run
// of the month just paid is on screen; the operator picks another one in the form.

/** The latest payday on or before `now`, as YYYY-MM-DD (UTC). */
export function latestPayday(now: Date): string {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const monthOffset = now.getUTCDate() >= PAYOUT_DAY_OF_MONTH ? 0 : -1;
  return new Date(Date.UTC(year, month + monthOffset, PAYOUT_DAY_OF_MONTH)).toISOString().slice(0, 10);
}

/** Whether a YYYY-MM-DD text is a real payday (a 15th). */
export function isPayday(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const date = new Date(`${day}T00:00:00Z`);
  return (
    !Number.isNaN(date.getTime()) &&
    date.toISOString().slice(0, 10) === day &&
    date.getUTCDate() === PAYOUT_DAY_OF_MONTH
  );
}
