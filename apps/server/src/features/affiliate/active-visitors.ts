import type { ActiveVisitors } from '@skanova/shared/affiliate/stats';
import { ACTIVE_VISITORS_WINDOW_MINUTES } from '@skanova/shared/affiliate/constants';
import type { AppContext } from '../../context.ts';

// "Real-time active users" (docs/product/attribution.md#active-visitors): distinct visitors, bots left out, on the affiliate's links
// in the last few minutes. Counted on every visit (not only counted clicks): a visitor who comes
// back within the hour is still active. The clicks index by code and time answers it.

/** The count of distinct human visitors of the codes `codes` (a subquery) since `since` (a parameter). */
export function activeVisitorsSql(codes: string, since: string): string {
  return `SELECT count(DISTINCT visitor_key)::int FROM clicks WHERE referral_code_id IN (${codes}) AND created_at > ${since} AND NOT is_bot`;
}

const ACTIVE_VISITORS_SQL = `SELECT (${activeVisitorsSql('SELECT id FROM referral_codes WHERE affiliate_id = $1', '$2')}) AS n`;

export async function countActiveVisitors(app: AppContext, affiliateId: string): Promise<ActiveVisitors> {
  const now = app.now();
  const since = new Date(now.getTime() - ACTIVE_VISITORS_WINDOW_MINUTES * 60_000);
  const { rows } = await app.database.sql.query<{ n: number }>(ACTIVE_VISITORS_SQL, [affiliateId, since.toISOString()]);
  return { activeVisitors: rows[0]?.n ?? 0, windowMinutes: ACTIVE_VISITORS_WINDOW_MINUTES, at: now.toISOString() };
}
