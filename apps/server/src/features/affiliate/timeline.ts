import { recentActivityWindow } from '@skanova/shared/affiliate/recent-activity';
import type { AffiliateTimeline, DailyActivity } from '@skanova/shared/affiliate/stats';
import { STATS_CHART_DAYS } from '@skanova/shared/affiliate/constants';
import type { AppContext } from '../../context.ts';

// The overview chart: counted clicks and qualified conversions per UTC day over the last
// STATS_CHART_DAYS days, today included (recentActivityWindow, the window of the `last30DaysCount`
// card too), days without activity as zeros. A counted click's day is its hour bucket's (the bucket
// starts within the same UTC day). click_counts' primary key starts with the code and the hour, so each
// code's window is one range of it (migrations/0005_dashboard_reads.sql).

const DAY_MS = 24 * 60 * 60 * 1000;

const TIMELINE_SQL = `
SELECT to_char(hour_bucket AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS clicks, 0 AS conversions
FROM click_counts
WHERE referral_code_id IN (SELECT id FROM referral_codes WHERE affiliate_id = $1)
  AND hour_bucket >= $2 AND hour_bucket < $3
GROUP BY 1
UNION ALL
SELECT to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 0, count(*)::int
FROM conversions
WHERE affiliate_id = $1 AND kind = 'first-purchase' AND status <> 'reversed' AND occurred_at >= $2 AND occurred_at < $3
GROUP BY 1`;

export async function loadTimeline(app: AppContext, affiliateId: string): Promise<AffiliateTimeline> {
  const { start: first, end: tomorrow } = recentActivityWindow(app.now());
  const { rows } = await app.database.sql.query<{ day: string; clicks: number; conversions: number }>(TIMELINE_SQL, [
    affiliateId,
    first.toISOString(),
    tomorrow.toISOString(),
  ]);
  const days: DailyActivity[] = Array.from({ length: STATS_CHART_DAYS }, (_, index) => ({
    date: new Date(first.getTime() + index * DAY_MS).toISOString().slice(0, 10),
    clicks: 0,
    conversions: 0,
  }));
  const byDate = new Map(days.map((day) => [day.date, day]));
  for (const row of rows) {
    const day = byDate.get(row.day);
    if (!day) continue;
    day.clicks += row.clicks;
    day.conversions += row.conversions;
  }
  return { days };
}
