import type { PendingDay, UnpaidEarnings } from '@skanova/shared/affiliate/stats';
import { nextPayoutDate, paydayAfterApproval } from '@skanova/shared/payouts/payout-schedule';
import type { AppContext } from '../../context.ts';
import { type SqlBigint, centsValue, jsonValue } from '../../db/rows.ts';
import { ledgerBalanceColumns } from '../../domain/ledger.ts';
import { nextPayoutCutoff } from '../../domain/money.ts';
import { ruleInForceSql } from '../../domain/reward-rules.ts';

// Why the next payday pays less than the unpaid earnings (docs/product/routes-and-screens.md#payments-tab):
// the unpaid earnings split by the ledger's accounts (docs/product/money.md#the-ledger) — payable before
// the next payday's cut-off, payable since it, pending in their hold, held by the review, in a payout
// not sent yet — and the pending commissions by the day their hold ends (`approvable_at`, set from the
// hold of the rule that priced each: docs/product/money.md#commission-hold). One statement, so the parts
// and the days agree with each other.

const UNPAID_EARNINGS_SQL = `
WITH ledger AS (
  SELECT ${ledgerBalanceColumns('$2::timestamptz')} FROM ledger_entries WHERE affiliate_id = $1
),
pending_days AS (
  SELECT to_char(c.approvable_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
         sum(c.commission_cents)::bigint AS cents, count(*)::int AS commissions
  FROM conversions c
  WHERE c.affiliate_id = $1 AND c.status = 'pending'
    AND ledger_location(c.status, payout_status_of(c.payout_id), c.review_hold) = 'pending'
  GROUP BY 1
)
SELECT l.pending, l.payable, l.held, l.in_payout, l.payable_at_cutoff,
       ${ruleInForceSql('minimum_payout_cents', 'a.group_id', '$3::timestamptz')} AS minimum_cents,
       (SELECT coalesce(json_agg(json_build_object('day', day, 'cents', cents, 'commissions', commissions) ORDER BY day), '[]'::json)
          FROM pending_days) AS days
FROM affiliates a CROSS JOIN ledger l
WHERE a.id = $1`;

interface UnpaidRow {
  pending: SqlBigint;
  payable: SqlBigint;
  held: SqlBigint;
  in_payout: SqlBigint;
  payable_at_cutoff: SqlBigint;
  minimum_cents: SqlBigint;
  days: { day: string; cents: SqlBigint; commissions: number }[] | string;
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

export async function loadUnpaidEarnings(app: AppContext, affiliateId: string): Promise<UnpaidEarnings> {
  const now = app.now();
  const cutoff = nextPayoutCutoff(now);
  const nextPayday = nextPayoutDate(now);
  const { rows } = await app.database.sql.query<UnpaidRow>(UNPAID_EARNINGS_SQL, [
    affiliateId,
    cutoff.toISOString(),
    now.toISOString(),
  ]);
  const row = rows[0];
  if (!row) throw new Error(`affiliate ${affiliateId} has no row`);
  const pending: PendingDay[] = jsonValue(row.days).map((day) => ({
    payableOn: day.day,
    payday: isoDay(paydayAfterApproval(new Date(`${day.day}T00:00:00Z`), now)),
    cents: centsValue(day.cents),
    commissions: day.commissions,
  }));
  const payableNow = centsValue(row.payable_at_cutoff);
  const parts = {
    payableOnNextPaydayCents: payableNow,
    payableLaterCents: centsValue(row.payable) - payableNow,
    pendingCents: centsValue(row.pending),
    underReviewCents: centsValue(row.held),
    inPayoutCents: centsValue(row.in_payout),
  };
  return {
    unpaidCents: Object.values(parts).reduce((sum, cents) => sum + cents, 0),
    nextPayday: isoDay(nextPayday),
    cutoff: cutoff.toISOString(),
    minimumCents: centsValue(row.minimum_cents),
    followingPayday: isoDay(nextPayoutDate(nextPayday)),
    pending,
    ...parts,
  };
}
