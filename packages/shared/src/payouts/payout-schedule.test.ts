import { describe, expect, it } from 'vitest';
import { nextPayoutDate, paydayAfterApproval, payoutCutoff } from './payout-schedule.ts';

// The one payment-timing rule (docs/product/money.md#payment-timing): approved before 00:00 UTC on the
// 1st, paid on the 15th of that month.

const at = (text: string) => new Date(text);
const day = (date: Date) => date.toISOString().slice(0, 10);

describe('paydayAfterApproval', () => {
  const now = at('2026-11-28T09:00:00Z');

  it('pays on the 15th of the month after the approval, whose cut-off the approval precedes', () => {
    expect(day(paydayAfterApproval(at('2026-12-03T10:00:00Z'), now))).toBe('2027-01-15');
    expect(day(paydayAfterApproval(at('2026-12-31T23:59:59Z'), now))).toBe('2027-01-15');
    const payday = paydayAfterApproval(at('2027-01-01T00:00:00Z'), now);
    // Approved at the cut-off itself: not before it, so the month after.
    expect(day(payday)).toBe('2027-02-15');
    expect(at('2027-01-01T00:00:00Z').getTime()).toBe(payoutCutoff(at('2027-01-15T00:00:00Z')).getTime());
  });

  it('is the next payday when the approval is older than its cut-off (a late approval)', () => {
    expect(day(paydayAfterApproval(at('2026-11-29T00:00:00Z'), now))).toBe('2026-12-15');
    expect(day(paydayAfterApproval(at('2026-10-02T00:00:00Z'), now))).toBe(day(nextPayoutDate(now)));
  });
});
