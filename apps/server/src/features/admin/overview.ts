import { latestPayday } from '@skanova/shared/payouts/payday';
import {
  ADMIN_OVERVIEW_MONTHS,
  type AdminCountAndCents,
  type AdminMonthActivity,
  type AdminOverview,
} from '@skanova/shared/admin/responses';
import { nextPayoutDate, payoutCutoff } from '@skanova/shared/payouts/payout-schedule';
import type { AppContext } from '../../context.ts';
import { heldByPayout, payableAdjustment, payableConversion } from '../../domain/money.ts';
import { type SqlBigint, centsValue } from '../../db/rows.ts';
import { ruleInForceSql } from '../../domain/reward-rules.ts';

// The operators' overview (docs/product/routes-and-screens.md#operator-console): the programme at a glance in three statements, whatever
// the number of affiliates — no statement per affiliate or per month.
//
// 1. Activity: one pass over each of click_counts, installs and conversions, grouped by UTC month
//    (and by status for conversions; a renewal's commission is a commission, not a conversion). The all-time totals are the sums of every month; the trend
//    keeps the last ADMIN_OVERVIEW_MONTHS. A counted click's month is its hour bucket's (an hour
//    never straddles two months).
// 2. State: affiliates by status (deleted and disabled accounts left out, as the affiliates list's
//    "active" and "pending" filters do), open tickets, failed payouts of the latest payday.
// 3. The next payday: every affiliate's payable balance by the payout run's own conditions
//    (domain/money.ts), kept when it reaches the minimum with a payment method on file.

const ACTIVITY_SQL = `
SELECT 'clicks' AS kind, to_char(hour_bucket AT TIME ZONE 'UTC', 'YYYY-MM') AS month, NULL AS status,
       count(*)::int AS n, 0::bigint AS cents, 0 AS commissions
FROM click_counts
GROUP BY 2
UNION ALL
SELECT 'installs', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM'), NULL, count(*)::int, 0::bigint, 0
FROM installs
WHERE affiliate_id IS NOT NULL
GROUP BY 2
UNION ALL
SELECT 'conversions', to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM'), status,
       count(*) FILTER (WHERE kind = 'first-purchase')::int, coalesce(sum(commission_cents), 0)::bigint, count(*)::int
FROM conversions
GROUP BY 2, 3`;

interface ActivityRow {
  kind: 'clicks' | 'installs' | 'conversions';
  month: string;
  status: 'pending' | 'approved' | 'paid' | 'reversed' | null;
  /** Clicks, installs, or qualified conversions (first purchases). */
  n: number;
  cents: SqlBigint;
  /** Commissions, renewals' included. */
  commissions: number;
}

const STATE_SQL = `
SELECT count(*) FILTER (WHERE a.status = 'active')::int AS active,
       count(*) FILTER (WHERE a.status = 'pending')::int AS pending,
       (SELECT count(*)::int FROM support_tickets WHERE status = 'open') AS open_tickets,
       (SELECT count(*)::int FROM payouts WHERE status = 'failed' AND scheduled_for = $1::date) AS failed_payouts
FROM affiliates a
LEFT JOIN auth_users u ON u.id = a.user_id
WHERE a.deleted_at IS NULL AND NOT coalesce(u.banned, false)`;

interface StateRow {
  active: number;
  pending: number;
  open_tickets: number;
  failed_payouts: number;
}

/** `$1` the payday's cut-off, `$2` now (the minimum payout of each affiliate's group in force). */
const NEXT_PAYDAY_SQL = `
WITH payable AS (
  SELECT c.affiliate_id, c.commission_cents AS cents FROM conversions c
  WHERE ${payableConversion('c', '$1::timestamptz')} AND NOT ${heldByPayout('c.payout_id')}
  UNION ALL
  SELECT a.affiliate_id, a.amount_cents FROM commission_adjustments a
  WHERE ${payableAdjustment('a', '$1::timestamptz')} AND NOT ${heldByPayout('a.payout_id')}
),
balances AS (
  SELECT affiliate_id, sum(cents) AS cents FROM payable GROUP BY affiliate_id
)
SELECT count(*)::int AS payouts, coalesce(sum(b.cents), 0)::bigint AS cents
FROM balances b
JOIN affiliates f ON f.id = b.affiliate_id AND f.deleted_at IS NULL
WHERE b.cents >= ${ruleInForceSql('minimum_payout_cents', 'f.group_id', '$2::timestamptz')} AND EXISTS (SELECT 1 FROM payment_methods m WHERE m.affiliate_id = b.affiliate_id)`;

/** The `count` UTC months ending with the month of `now`, oldest first, as YYYY-MM. */
export function utcMonthsEndingAt(now: Date, count: number): string[] {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return Array.from({ length: count }, (_, index) =>
    new Date(Date.UTC(year, month - (count - 1 - index), 1)).toISOString().slice(0, 7),
  );
}

export async function loadOverview(app: AppContext): Promise<AdminOverview> {
  const now = app.now();
  const payday = nextPayoutDate(now);
  const cutoff = payoutCutoff(payday);
  const failedPayday = latestPayday(now);
  const sql = app.database.sql;
  const [activity, state, next] = await Promise.all([
    sql.query<ActivityRow>(ACTIVITY_SQL),
    sql.query<StateRow>(STATE_SQL, [failedPayday]),
    sql.query<{ payouts: number; cents: SqlBigint }>(NEXT_PAYDAY_SQL, [cutoff.toISOString(), now.toISOString()]),
  ]);

  const months: AdminMonthActivity[] = utcMonthsEndingAt(now, ADMIN_OVERVIEW_MONTHS).map((month) => ({
    month,
    clicks: 0,
    installs: 0,
    conversions: 0,
  }));
  const byMonth = new Map(months.map((entry) => [entry.month, entry]));
  const totals = { clicks: 0, installs: 0, conversions: 0 };
  const commission = (): AdminCountAndCents => ({ count: 0, cents: 0 });
  const commissions = { pending: commission(), approved: commission(), paid: commission() };
  for (const row of activity.rows) {
    if (row.kind === 'conversions') {
      // A reversed conversion is neither qualified nor a commission.
      if (row.status === null || row.status === 'reversed') continue;
      commissions[row.status].count += row.commissions;
      commissions[row.status].cents += centsValue(row.cents);
    }
    totals[row.kind] += row.n;
    const entry = byMonth.get(row.month);
    if (entry) entry[row.kind] += row.n;
  }

  const counts = state.rows[0] ?? { active: 0, pending: 0, open_tickets: 0, failed_payouts: 0 };
  return {
    asOf: now.toISOString(),
    affiliates: { active: counts.active, pending: counts.pending },
    totals,
    commissions,
    nextPayday: {
      date: payday.toISOString().slice(0, 10),
      cutoff: cutoff.toISOString(),
      payouts: next.rows[0]?.payouts ?? 0,
      cents: centsValue(next.rows[0]?.cents),
    },
    months,
    needsAction: {
      pendingApplications: counts.pending,
      failedPayouts: { count: counts.failed_payouts, payday: failedPayday },
      openTickets: counts.open_tickets,
    },
  };
}
