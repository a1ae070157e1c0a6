import { RECENT_CONVERSIONS_DAYS } from '@skanova/shared/affiliate/constants';
import { type SqlBigint, centsValue } from '../db/rows.ts';
import type { TransactionQuery } from '../db/transaction.ts';

// The money ledger (docs/product/money.md#the-ledger). The database appends its entries itself, in
// the statement that moves the money (migrations/0007_ledger.sql, 0012_review.sql): a commission
// recorded, approved, held by a review case and released from it, scheduled, paid, released by a
// failed payout, reversed; an adjustment. Nothing here writes it.
// This module reads it: an affiliate's balances are sums of its entries, and the reconciliation
// checks those sums against the rows (conversions, adjustments) and the payouts.

export type LedgerAccount = 'pending' | 'payable' | 'held' | 'in-payout' | 'paid';

/** SQL: what the entries of the current group add to `account` (entered minus left). */
function accountSum(account: LedgerAccount, filter = 'true'): string {
  return `coalesce(sum(CASE WHEN NOT (${filter}) THEN 0
                           WHEN to_account = '${account}' THEN amount_cents
                           WHEN from_account = '${account}' THEN -amount_cents
                           ELSE 0 END), 0)::bigint`;
}

/**
 * SQL columns of one affiliate's (or each affiliate's) balances over `ledger_entries`: pending,
 * payable, in_payout, paid, and payable_at_cutoff — the payable rows from before the cut-off given
 * as the SQL expression `cutoff` (deductions, with no `payable_from`, are always payable).
 */
export function ledgerBalanceColumns(cutoff: string): string {
  return `${accountSum('pending')} AS pending,
       ${accountSum('payable')} AS payable,
       ${accountSum('held')} AS held,
       ${accountSum('in-payout')} AS in_payout,
       ${accountSum('paid')} AS paid,
       ${accountSum('payable', `payable_from IS NULL OR payable_from < ${cutoff}`)} AS payable_at_cutoff`;
}

/**
 * The dashboard's totals for the affiliate `$1` in one row `totals` (the columns of `EarningsTotals`,
 * domain/money.ts): money from the ledger, counts from the conversions. `$2` is the next payday's
 * cut-off, `$3` the start of the recent-conversions window. Also defines `earned` (the qualified
 * conversions — first purchases not reversed — with their referral code) for per-code counts.
 */
export const LEDGER_TOTALS_CTES = `
earned AS (
  SELECT c.referral_code_id, c.occurred_at FROM conversions c
  WHERE c.affiliate_id = $1 AND c.status <> 'reversed' AND c.kind = 'first-purchase'
),
ledger AS (
  SELECT ${ledgerBalanceColumns('$2::timestamptz')} FROM ledger_entries WHERE affiliate_id = $1
),
counts AS (
  SELECT count(*)::int AS qualified,
         count(*) FILTER (WHERE occurred_at >= $3
                            AND occurred_at < $3::timestamptz + make_interval(hours => ${RECENT_CONVERSIONS_DAYS * 24}))::int AS recent
  FROM earned
),
totals AS (
  SELECT n.qualified, n.recent,
         l.pending + l.payable + l.held + l.in_payout + l.paid AS total_cents,
         l.pending + l.payable + l.held + l.in_payout AS unpaid_cents,
         l.payable + l.in_payout AS approved_unpaid_cents,
         l.payable_at_cutoff AS payable_cents,
         l.held AS under_review_cents
  FROM counts n CROSS JOIN ledger l
)`;

export interface LedgerBalances {
  pendingCents: number;
  payableCents: number;
  /** Held by a review case (docs/product/review.md#holding). */
  heldCents: number;
  inPayoutCents: number;
  paidCents: number;
  /** Payable on the payday of the cut-off given, before the minimum payout. */
  payableAtCutoffCents: number;
}

interface BalanceRow {
  pending: SqlBigint;
  payable: SqlBigint;
  held: SqlBigint;
  in_payout: SqlBigint;
  paid: SqlBigint;
  payable_at_cutoff: SqlBigint;
}

function balancesOf(row: BalanceRow | undefined): LedgerBalances {
  return {
    pendingCents: centsValue(row?.pending),
    payableCents: centsValue(row?.payable),
    heldCents: centsValue(row?.held),
    inPayoutCents: centsValue(row?.in_payout),
    paidCents: centsValue(row?.paid),
    payableAtCutoffCents: centsValue(row?.payable_at_cutoff),
  };
}

/** The affiliate's balances: sums of its ledger entries. */
export async function ledgerBalances(tx: TransactionQuery, affiliateId: string, cutoff: Date): Promise<LedgerBalances> {
  const { rows } = await tx.query<BalanceRow>(
    `SELECT ${ledgerBalanceColumns('$2::timestamptz')} FROM ledger_entries WHERE affiliate_id = $1`,
    [affiliateId, cutoff.toISOString()],
  );
  return balancesOf(rows[0]);
}

/** One account of one affiliate where the ledger and the books disagree. */
export interface LedgerDifference {
  affiliateId: string;
  account: LedgerAccount;
  /** What the ledger's entries sum to. */
  ledgerCents: number;
  /** What the rows say: the commissions and adjustments where they are, or the payouts' amounts. */
  expectedCents: number;
  /** What the expected figure is made of. */
  source: 'rows' | 'payouts';
}

// Each account's balance against two independent sources: the rows where they stand today (a
// conversion's status and its payout's; an adjustment's payout), and, for money in payouts, the
// payouts' own amounts (a payout's amount is the sum of the rows it took when it was scheduled).
const RECONCILE_SQL = `
WITH ledger AS (
  SELECT affiliate_id, ${ledgerBalanceColumns("'infinity'::timestamptz")}
  FROM ledger_entries WHERE $1::text IS NULL OR affiliate_id = $1 GROUP BY affiliate_id
),
located AS (
  SELECT c.affiliate_id, c.commission_cents AS cents,
         CASE WHEN c.status = 'reversed' THEN 'programme'
              WHEN p.status IN ('sent', 'paid') OR c.status = 'paid' THEN 'paid'
              WHEN p.status = 'scheduled' THEN 'in-payout'
              WHEN c.review_hold THEN 'held'
              WHEN c.status = 'pending' THEN 'pending'
              ELSE 'payable' END AS account
  FROM conversions c LEFT JOIN payouts p ON p.id = c.payout_id
  WHERE $1::text IS NULL OR c.affiliate_id = $1
  UNION ALL
  SELECT a.affiliate_id, a.amount_cents,
         CASE WHEN p.status IN ('sent', 'paid') THEN 'paid' WHEN p.status = 'scheduled' THEN 'in-payout' ELSE 'payable' END
  FROM commission_adjustments a LEFT JOIN payouts p ON p.id = a.payout_id
  WHERE $1::text IS NULL OR a.affiliate_id = $1
),
rows_by_account AS (
  SELECT affiliate_id,
         coalesce(sum(cents) FILTER (WHERE account = 'pending'), 0)::bigint AS pending,
         coalesce(sum(cents) FILTER (WHERE account = 'payable'), 0)::bigint AS payable,
         coalesce(sum(cents) FILTER (WHERE account = 'held'), 0)::bigint AS held,
         coalesce(sum(cents) FILTER (WHERE account = 'in-payout'), 0)::bigint AS in_payout,
         coalesce(sum(cents) FILTER (WHERE account = 'paid'), 0)::bigint AS paid
  FROM located GROUP BY affiliate_id
),
payout_sums AS (
  SELECT affiliate_id,
         coalesce(sum(amount_cents) FILTER (WHERE status = 'scheduled'), 0)::bigint AS in_payout,
         coalesce(sum(amount_cents) FILTER (WHERE status IN ('sent', 'paid')), 0)::bigint AS paid
  FROM payouts WHERE $1::text IS NULL OR affiliate_id = $1 GROUP BY affiliate_id
),
compared AS (
  SELECT coalesce(l.affiliate_id, r.affiliate_id, s.affiliate_id) AS affiliate_id, x.account, x.source,
         x.ledger_cents, x.expected_cents
  FROM ledger l
  FULL JOIN rows_by_account r ON r.affiliate_id = l.affiliate_id
  FULL JOIN payout_sums s ON s.affiliate_id = coalesce(l.affiliate_id, r.affiliate_id)
  CROSS JOIN LATERAL (VALUES
    ('pending', 'rows', coalesce(l.pending, 0), coalesce(r.pending, 0)),
    ('payable', 'rows', coalesce(l.payable, 0), coalesce(r.payable, 0)),
    ('held', 'rows', coalesce(l.held, 0), coalesce(r.held, 0)),
    ('in-payout', 'rows', coalesce(l.in_payout, 0), coalesce(r.in_payout, 0)),
    ('paid', 'rows', coalesce(l.paid, 0), coalesce(r.paid, 0)),
    ('in-payout', 'payouts', coalesce(l.in_payout, 0), coalesce(s.in_payout, 0)),
    ('paid', 'payouts', coalesce(l.paid, 0), coalesce(s.paid, 0))
  ) AS x(account, source, ledger_cents, expected_cents)
)
SELECT affiliate_id, account, source, ledger_cents, expected_cents FROM compared
WHERE ledger_cents <> expected_cents
ORDER BY affiliate_id, account, source`;

/**
 * Every account (of one affiliate, or of all) whose ledger balance differs from the books: empty
 * when the ledger reconciles to the cent.
 */
export async function reconcileLedger(tx: TransactionQuery, affiliateId?: string): Promise<LedgerDifference[]> {
  const { rows } = await tx.query<{
    affiliate_id: string;
    account: LedgerAccount;
    source: 'rows' | 'payouts';
    ledger_cents: SqlBigint;
    expected_cents: SqlBigint;
  }>(RECONCILE_SQL, [affiliateId ?? null]);
  return rows.map((row) => ({
    affiliateId: row.affiliate_id,
    account: row.account,
    ledgerCents: centsValue(row.ledger_cents),
    expectedCents: centsValue(row.expected_cents),
    source: row.source,
  }));
}
