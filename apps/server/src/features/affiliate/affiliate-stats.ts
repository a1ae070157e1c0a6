import { recentActivityWindow } from '@skanova/shared/affiliate/recent-activity';
import type { AffiliateStats, ReferralCodeStats } from '@skanova/shared/affiliate/stats';
import { ACTIVE_VISITORS_WINDOW_MINUTES, RECENT_CONVERSIONS_DAYS } from '@skanova/shared/affiliate/constants';
import {
  PREMIUM_COMMISSION_CENTS,
  PREMIUM_THRESHOLD,
  STANDARD_COMMISSION_CENTS,
} from '@skanova/shared/affiliate/programme';
import type { AffiliateStatus } from '@skanova/shared/affiliate/schemas';
import { type SqlBigint, centsValue, jsonValue } from '../../db/rows.ts';
import type { AppContext } from '../../context.ts';
import { activeVisitorsSql } from './active-visitors.ts';
import { type EarningsTotals, nextPayout, nextPayoutCutoff } from '../../domain/money.ts';
import { LEDGER_TOTALS_CTES } from '../../domain/ledger.ts';
import { ruleInForceSql } from '../../domain/reward-rules.ts';

// The dashboard's statistics (docs/product/money.md#statistics, docs/product/money.md#premium-tier, docs/product/attribution.md#active-visitors) in ONE statement: the
// dashboard opens on it, so it must stay fast with millions of clicks (docs/benchmarks.md). Every
// part is a few rows read by key, kept by the database's triggers however many visits, conversions
// and ledger entries the affiliate has: its codes (referral_codes by affiliate) with their counted
// clicks (migrations/0005_dashboard_reads.sql) and qualified conversions, its ledger balances, the
// qualified conversions of the last 30 days' UTC days and the payable amounts of the days from the
// payout cut-off on (migrations/0016_dashboard_totals.sql); only the active visitors are counted, over
// the last few minutes' visits (clicks by code and time).

const MINUTE_MS = 60_000;

/** The totals that are sums of cents (bigint in SQL). */
type MoneyColumn = 'total_cents' | 'unpaid_cents' | 'approved_unpaid_cents' | 'payable_cents' | 'under_review_cents';

/** The UTC day of the SQL timestamp parameter `parameter` (the cut-off and the window start are 00:00 UTC). */
const utcDay = (parameter: string) => `(${parameter}::timestamptz AT TIME ZONE 'UTC')::date`;

/** The columns every variant of the statement shares, from `codes`, `code_rows` and `totals`. */
const STATS_SELECT = `
SELECT a.status, t.*,
       ${ruleInForceSql('minimum_payout_cents', 'a.group_id', '$5::timestamptz')} AS minimum_cents,
       (${activeVisitorsSql('SELECT id FROM codes', '$4')}) AS active_visitors,
       (SELECT coalesce(json_agg(json_build_object(
                 'code', code, 'description', description, 'clicks', clicks, 'conversions', conversions,
                 'createdAtMs', floor(extract(epoch FROM created_at) * 1000)
               ) ORDER BY created_at, id), '[]'::json)
          FROM code_rows) AS codes
FROM affiliates a CROSS JOIN totals t
WHERE a.id = $1`;

// $1 the affiliate, $2 the next payday's cut-off, $3 the start of the last 30 days, $4 the start of
// the active visitors' minutes, $5 now.
export const STATS_SQL = `
WITH codes AS (
  SELECT id, code, description, created_at FROM referral_codes WHERE affiliate_id = $1
),
code_conversions AS (
  SELECT referral_code_id, qualified FROM affiliate_code_conversion_totals WHERE affiliate_id = $1
),
code_rows AS (
  SELECT k.id, k.code, k.description, k.created_at,
         coalesce(t.counted_clicks::int, 0) AS clicks,
         coalesce(e.qualified::int, 0) AS conversions
  FROM codes k
  LEFT JOIN referral_code_click_totals t ON t.referral_code_id = k.id
  LEFT JOIN code_conversions e ON e.referral_code_id = k.id
),
ledger AS (
  SELECT coalesce(l.pending, 0) AS pending, coalesce(l.payable, 0) AS payable, coalesce(l.held, 0) AS held,
         coalesce(l.in_payout, 0) AS in_payout, coalesce(l.paid, 0) AS paid
  FROM (SELECT 1) one LEFT JOIN affiliate_ledger_totals l ON l.affiliate_id = $1
),
totals AS (
  SELECT (SELECT coalesce(sum(qualified), 0)::int FROM code_conversions) AS qualified,
         (SELECT coalesce(sum(qualified), 0)::int FROM affiliate_conversion_days
           WHERE affiliate_id = $1 AND day >= ${utcDay('$3')}
             AND day < ${utcDay('$3')} + ${RECENT_CONVERSIONS_DAYS}) AS recent,
         l.pending + l.payable + l.held + l.in_payout + l.paid AS total_cents,
         l.pending + l.payable + l.held + l.in_payout AS unpaid_cents,
         l.payable + l.in_payout AS approved_unpaid_cents,
         (l.payable - coalesce((SELECT sum(payable) FROM affiliate_payable_days
                                 WHERE affiliate_id = $1 AND day >= ${utcDay('$2')}), 0))::bigint AS payable_cents,
         l.held AS under_review_cents
  FROM ledger l
)${STATS_SELECT}`;

/**
 * The same figures summed from the rows themselves at every reading: the ledger's entries and the
 * conversions (LEDGER_TOTALS_CTES), as the statement read them before the totals. The reference the
 * totals are checked against (apps/server/test/dashboard-totals.test.ts, bench/stats.bench.ts,
 * bench/dashboard-totals.bench.ts).
 */
export const STATS_FROM_ROWS_SQL = `
WITH codes AS (
  SELECT id, code, description, created_at FROM referral_codes WHERE affiliate_id = $1
),
${LEDGER_TOTALS_CTES},
code_conversions AS (
  SELECT referral_code_id, count(*)::int AS conversions FROM earned GROUP BY referral_code_id
),
code_rows AS (
  SELECT k.id, k.code, k.description, k.created_at,
         coalesce(t.counted_clicks::int, 0) AS clicks,
         coalesce(e.conversions, 0) AS conversions
  FROM codes k
  LEFT JOIN referral_code_click_totals t ON t.referral_code_id = k.id
  LEFT JOIN code_conversions e ON e.referral_code_id = k.id
)${STATS_SELECT}`;

export interface StatsRow extends Omit<EarningsTotals, MoneyColumn>, Record<MoneyColumn, SqlBigint> {
  status: AffiliateStatus;
  /** The minimum payout of the affiliate's group today. */
  minimum_cents: SqlBigint;
  active_visitors: number;
  codes:
    { code: string; description: string | null; clicks: number; conversions: number; createdAtMs: number }[] | string;
}

/** `${PUBLIC_URL}/download?ref=CODE` (docs/product/attribution.md#referral-link): printed QR codes make this address permanent. */
export function referralLink(publicUrl: string, code: string): string {
  return `${publicUrl}/download?ref=${encodeURIComponent(code)}`;
}

/** Qualified conversions ÷ counted clicks × 100 with one decimal; 0 without clicks. */
export function conversionRate(conversions: number, clicks: number): number {
  if (clicks === 0) return 0;
  // Integer arithmetic first: 1/8 is 12.5 exactly, not 12.499999…
  return Math.round((conversions * 1000) / clicks) / 10;
}

const dollars = (cents: number) => cents / 100;

export async function loadAffiliateStats(app: AppContext, affiliateId: string): Promise<AffiliateStats> {
  return loadStatsWith(app, affiliateId, STATS_SQL, 'affiliate-stats');
}

/** The statements' parameters for the affiliate seen at `now`. */
export function statsParameters(affiliateId: string, now: Date): string[] {
  return [
    affiliateId,
    nextPayoutCutoff(now).toISOString(),
    // `last30DaysCount`: the chart's days (the statement counts from here to the window's end).
    recentActivityWindow(now).start.toISOString(),
    new Date(now.getTime() - ACTIVE_VISITORS_WINDOW_MINUTES * MINUTE_MS).toISOString(),
    now.toISOString(),
  ];
}

/** The statement's row, read by `sql` (STATS_SQL, or the reference STATS_FROM_ROWS_SQL) as the named statement `name`. */
export async function readStatsRow(app: AppContext, affiliateId: string, sql: string, name: string): Promise<StatsRow> {
  const { rows } = await app.database.sql.query<StatsRow>(sql, statsParameters(affiliateId, app.now()), { name });
  const found = rows[0];
  if (!found) throw new Error(`affiliate ${affiliateId} has no row`);
  return found;
}

/** The statistics read by `sql` (STATS_SQL, or the reference STATS_FROM_ROWS_SQL) as the named statement `name`. */
export async function loadStatsWith(
  app: AppContext,
  affiliateId: string,
  sql: string,
  name: string,
): Promise<AffiliateStats> {
  const now = app.now();
  const found = await readStatsRow(app, affiliateId, sql, name);
  const row = {
    ...found,
    total_cents: centsValue(found.total_cents),
    unpaid_cents: centsValue(found.unpaid_cents),
    approved_unpaid_cents: centsValue(found.approved_unpaid_cents),
    payable_cents: centsValue(found.payable_cents),
    under_review_cents: centsValue(found.under_review_cents),
  };
  const codes = jsonValue(row.codes);
  const referralCodes: ReferralCodeStats[] = codes.map((code) => ({
    code: code.code,
    description: code.description,
    clickCount: code.clicks,
    conversionCount: code.conversions,
    link: referralLink(app.config.publicUrl, code.code),
    createdAt: new Date(code.createdAtMs).toISOString(),
  }));
  const totalClicks = referralCodes.reduce((sum, code) => sum + code.clickCount, 0);
  const hasPremiumRate = row.qualified >= PREMIUM_THRESHOLD;
  return {
    totalEarnings: dollars(row.total_cents),
    totalEarningsCents: row.total_cents,
    unpaidEarnings: dollars(row.unpaid_cents),
    unpaidEarningsCents: row.unpaid_cents,
    totalConversions: row.qualified,
    totalClicks,
    conversionRate: conversionRate(row.qualified, totalClicks),
    last30DaysCount: row.recent,
    hasPremiumRate,
    progressToTier: Math.min(PREMIUM_THRESHOLD, row.qualified),
    currentCommissionRate: dollars(hasPremiumRate ? PREMIUM_COMMISSION_CENTS : STANDARD_COMMISSION_CENTS),
    referralCodes,
    activeVisitors: row.active_visitors,
    nextPayout: nextPayout(now, row, centsValue(found.minimum_cents)),
    underReviewCents: row.under_review_cents,
    status: row.status,
  };
}
