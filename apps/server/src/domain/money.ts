import { RECENT_CONVERSIONS_DAYS } from '@skanova/shared/affiliate/constants';
import { nextPayoutDate, payoutCutoff } from '@skanova/shared/payouts/payout-schedule';
import { EXCHANGE_RATE_DECIMALS, isAcceptableExchangeRate } from '@skanova/shared/payouts/schemas';
import type { TransactionQuery } from '../db/transaction.ts';
import { ledgerBalances } from './ledger.ts';

// The programme's money rules, in one module that the affiliate's statistics, payouts, admin,
// retention and account deletion all use (ADR 008).
//
// An affiliate's money (docs/product/money.md#premium-tier, docs/product/money.md#statistics), defined once for the dashboard, the
// payout run, the console and the account-deletion rule. In SQL, so the database adds up only the
// affiliate's own rows.
//
// - Qualified conversions are the first purchases not reversed (a renewal's commission is money, not a
//   conversion); their commission was fixed when recorded.
// - Adjustments are signed corrections (e.g. a refund after payment).
// - Unpaid = not in a payout that was sent or paid (a scheduled or failed payout has not paid it);
//   pending commissions are unpaid too.
// - Approved unpaid = approved commissions and adjustments not yet paid: the balance owed.
// - Payable on the next payday = commissions approved before that payday's cut-off (00:00 UTC on the
//   1st), plus adjustments made before it, plus every deduction (a clawback is never postponed:
//   the amount announced is never more than what will be paid), when no payout holds them yet.
//   The payout run pays exactly these rows (features/payouts/payout-run.ts uses the same conditions).

/**
 * SQL condition: the conversion `c` (a table alias) is payable on the payday whose cut-off is the SQL
 * expression `cutoff`, unless a payout already holds it (see `heldByPayout`). A commission a review
 * case holds is never payable (docs/product/review.md#holding): it is in the ledger's `held` account.
 */
export function payableConversion(c: string, cutoff: string): string {
  return `(${c}.status = 'approved' AND NOT ${c}.review_hold AND coalesce(${c}.approved_at, ${c}.occurred_at) < ${cutoff})`;
}

/**
 * SQL condition: the conversion `c` is under review — held by a case, not reversed, and in no payout
 * that holds it (the ledger's `held` account: migrations/0012_review.sql, `ledger_location`).
 */
export function underReviewConversion(c: string): string {
  return `(${c}.review_hold AND ${c}.status IN ('pending', 'approved') AND NOT ${heldByPayout(`${c}.payout_id`)})`;
}

/** SQL condition: the adjustment `a` is payable on the payday whose cut-off is `cutoff`, unless held. */
export function payableAdjustment(a: string, cutoff: string): string {
  return `(${a}.created_at < ${cutoff} OR ${a}.amount_cents < 0)`;
}

/**
 * SQL condition: the row's payout (`payoutId`, a column) holds its amount. Every payout but a failed
 * one does: a failed payout gives its amounts back to the balance.
 */
export function heldByPayout(payoutId: string): string {
  // A lookup by primary key per row: a join could be planned as a scan of every payout per row.
  return `(${payoutId} IS NOT NULL AND coalesce((SELECT holder.status <> 'failed' FROM payouts holder WHERE holder.id = ${payoutId}), false))`;
}

/**
 * Rows of the affiliate `$1`'s qualified conversions and adjustments, with whether each is unpaid and
 * whether it is payable on the payday whose cut-off is `$2`.
 */
export const EARNINGS_CTES = `
settled_payouts AS (
  SELECT id FROM payouts WHERE affiliate_id = $1 AND status IN ('sent', 'paid')
),
earned AS (
  SELECT c.referral_code_id, c.commission_cents AS cents, c.status, c.occurred_at, c.kind,
         NOT (c.status = 'paid' OR coalesce(c.payout_id IN (SELECT id FROM settled_payouts), false)) AS unpaid,
         ${payableConversion('c', '$2')} AND NOT ${heldByPayout('c.payout_id')} AS payable,
         ${underReviewConversion('c')} AS under_review
  FROM conversions c
  WHERE c.affiliate_id = $1 AND c.status <> 'reversed'
),
adjusted AS (
  SELECT a.amount_cents AS cents,
         NOT coalesce(a.payout_id IN (SELECT id FROM settled_payouts), false) AS unpaid,
         ${payableAdjustment('a', '$2')} AND NOT ${heldByPayout('a.payout_id')} AS payable
  FROM commission_adjustments a
  WHERE a.affiliate_id = $1
)`;

/**
 * The totals of EARNINGS_CTES in one row `totals`. Parameters: `$1` the affiliate, `$2` the cut-off of
 * the next payday, `$3` the start of the recent-conversions window (`recentActivityWindow`), which
 * lasts RECENT_CONVERSIONS_DAYS whole days (in hours: a day is 24 h whatever the session's time zone).
 */
export const EARNINGS_TOTALS_CTES = `${EARNINGS_CTES},
conversion_totals AS (
  SELECT count(*) FILTER (WHERE kind = 'first-purchase')::int AS qualified,
         count(*) FILTER (WHERE kind = 'first-purchase' AND occurred_at >= $3
                            AND occurred_at < $3::timestamptz + make_interval(hours => ${RECENT_CONVERSIONS_DAYS * 24}))::int AS recent,
         coalesce(sum(cents), 0)::int AS total_cents,
         coalesce(sum(cents) FILTER (WHERE unpaid), 0)::int AS unpaid_cents,
         coalesce(sum(cents) FILTER (WHERE unpaid AND status = 'approved' AND NOT under_review), 0)::int AS approved_unpaid_cents,
         coalesce(sum(cents) FILTER (WHERE payable), 0)::int AS payable_cents,
         coalesce(sum(cents) FILTER (WHERE under_review), 0)::int AS under_review_cents
  FROM earned
),
adjustment_totals AS (
  SELECT coalesce(sum(cents), 0)::int AS total_cents,
         coalesce(sum(cents) FILTER (WHERE unpaid), 0)::int AS unpaid_cents,
         coalesce(sum(cents) FILTER (WHERE payable), 0)::int AS payable_cents
  FROM adjusted
),
totals AS (
  SELECT c.qualified, c.recent,
         c.total_cents + a.total_cents AS total_cents,
         c.unpaid_cents + a.unpaid_cents AS unpaid_cents,
         c.approved_unpaid_cents + a.unpaid_cents AS approved_unpaid_cents,
         c.payable_cents + a.payable_cents AS payable_cents,
         c.under_review_cents
  FROM conversion_totals c CROSS JOIN adjustment_totals a
)`;

export interface EarningsTotals {
  qualified: number;
  recent: number;
  total_cents: number;
  unpaid_cents: number;
  approved_unpaid_cents: number;
  payable_cents: number;
  /** Held by a review case: unpaid, in no payout, out of every payout until an operator decides. */
  under_review_cents: number;
}

/**
 * The same totals for many affiliates at once (the console's list; EARNINGS_TOTALS_CTES reads one
 * affiliate): joins from the SQL expression `affiliateId` that add `cv` (qualified, commission_cents,
 * unpaid_cents) and `adj` (total_cents, unpaid_cents). Qualified = not reversed; earnings = their
 * commissions + adjustments; unpaid = not in a sent or paid payout. The list test compares both on
 * the same rows.
 */
export function affiliateMoneyJoins(affiliateId: string): string {
  return `CROSS JOIN LATERAL (
  SELECT count(*) FILTER (WHERE c.kind = 'first-purchase')::int AS qualified,
         coalesce(sum(c.commission_cents), 0)::int AS commission_cents,
         coalesce(sum(c.commission_cents) FILTER (WHERE NOT (c.status = 'paid' OR coalesce(s.status IN ('sent', 'paid'), false))), 0)::int AS unpaid_cents
  FROM conversions c LEFT JOIN payouts s ON s.id = c.payout_id
  WHERE c.affiliate_id = ${affiliateId} AND c.status <> 'reversed'
) cv
CROSS JOIN LATERAL (
  SELECT coalesce(sum(j.amount_cents), 0)::int AS total_cents,
         coalesce(sum(j.amount_cents) FILTER (WHERE NOT coalesce(s.status IN ('sent', 'paid'), false)), 0)::int AS unpaid_cents
  FROM commission_adjustments j LEFT JOIN payouts s ON s.id = j.payout_id
  WHERE j.affiliate_id = ${affiliateId}
) adj`;
}

/** The columns of `affiliateMoneyJoins`: qualified, earnings_cents, unpaid_cents. */
export const AFFILIATE_MONEY_COLUMNS = `cv.qualified,
       cv.commission_cents + adj.total_cents AS earnings_cents,
       cv.unpaid_cents + adj.unpaid_cents AS unpaid_cents`;

/** The next payday and what it pays: nothing below the minimum of the affiliate's group (the balance rolls over). */
export function nextPayout(
  now: Date,
  totals: Pick<EarningsTotals, 'payable_cents' | 'approved_unpaid_cents'>,
  minimumCents: number,
) {
  return {
    date: nextPayoutDate(now).toISOString().slice(0, 10),
    payableCents: totals.payable_cents >= minimumCents ? totals.payable_cents : 0,
    approvedUnpaidCents: totals.approved_unpaid_cents,
  };
}

/** The cut-off of the next payday (the totals' `$2`). */
export function nextPayoutCutoff(now: Date): Date {
  return payoutCutoff(nextPayoutDate(now));
}

/** The affiliate's approved balance not yet paid, in cents (account deletion waits while it is owed): its ledger's payable and in-payout accounts. */
export async function approvedUnpaidCents(tx: TransactionQuery, affiliateId: string, now: Date): Promise<number> {
  const balances = await ledgerBalances(tx, affiliateId, nextPayoutCutoff(now));
  return balances.payableCents + balances.inPayoutCents;
}

/** Whether anything is owed to the affiliate (retention keeps an inactive account while it is): an unpaid commission (pending or approved), a credit, a scheduled payout. */
export async function isOwedMoney(tx: TransactionQuery, affiliateId: string, now: Date): Promise<boolean> {
  const { rows } = await tx.query<{ owed: boolean }>(
    `WITH ${EARNINGS_TOTALS_CTES}
     SELECT EXISTS (SELECT 1 FROM earned WHERE unpaid AND cents > 0)
         OR EXISTS (SELECT 1 FROM adjusted WHERE unpaid AND cents > 0)
         OR EXISTS (SELECT 1 FROM payouts WHERE affiliate_id = $1 AND status = 'scheduled') AS owed`,
    [affiliateId, nextPayoutCutoff(now).toISOString(), now.toISOString()],
  );
  return rows[0]?.owed ?? false;
}

// Amounts in the export files (docs/product/money.md#payouts): integer cents inside, decimal text at the edge, and the
// USD→EUR conversion of SEPA payouts in exact integer arithmetic (never floating point).

/** 1234 → "12.34" (integer cents, never negative). */
export function decimalAmount(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`not an amount in cents: ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

const RATE_SCALE = 10n ** BigInt(EXCHANGE_RATE_DECIMALS);

/** The rate as stored (numeric(12, 6)): "0.9231" → "0.923100". Throws on a rate the exports refuse. */
export function normaliseExchangeRate(rate: string): string {
  const value = rate.trim();
  if (!isAcceptableExchangeRate(value)) throw new RangeError(`not an acceptable exchange rate: "${rate}"`);
  const [whole = '0', fraction = ''] = value.split('.');
  return `${Number(whole)}.${fraction.padEnd(EXCHANGE_RATE_DECIMALS, '0')}`;
}

/** `cents` × `rate` (a normalised rate), rounded half up to the cent. */
export function convertCents(cents: number, rate: string): number {
  const [whole = '0', fraction = ''] = normaliseExchangeRate(rate).split('.');
  const scaled = BigInt(whole) * RATE_SCALE + BigInt(fraction);
  const product = BigInt(cents) * scaled;
  return Number((product * 2n + RATE_SCALE) / (2n * RATE_SCALE));
}
