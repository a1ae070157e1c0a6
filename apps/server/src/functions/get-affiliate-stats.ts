import { noInputSchema } from '@skanova/shared/callable/schemas';
import {
  type StatsRow,
  loadAffiliateStats,
  statsFromRow,
  statsMoments,
  statsSql,
} from '../features/affiliate/affiliate-stats.ts';
import { defineCallable } from '../http/callable.ts';

/** The statistics row read with the session, and the moment its parameters were taken at (ms). */
type StatsReadRow = StatsRow & { read_at_ms: number };

/**
 * The dashboard's statistics (docs/product/money.md#statistics, docs/product/calls-and-data.md#server-functions getAffiliateStats): earnings, clicks,
 * conversions, tier, referral codes with their links, active visitors and the next payout, all
 * computed from the caller's own rows — read in the session lookup's statement when it can be
 * (features/auth/caller.ts `CallerRead`: one round trip for the dashboard's opening), else on their own.
 */
export const getAffiliateStats = defineCallable({
  name: 'getAffiliateStats',
  access: 'affiliate',
  input: noInputSchema,
  readWithCaller: (app) => ({
    name: 'affiliate-stats',
    // The statement's parameters after the affiliate ($2 … $5); $5 is the moment they were taken at.
    sql: (affiliateId) =>
      `SELECT s.*, floor(extract(epoch FROM $5::timestamptz) * 1000) AS read_at_ms FROM (${statsSql(affiliateId)}) s`,
    parameters: statsMoments(app.now()),
  }),
  async handler(_input, { app, caller, callerRead }) {
    if (!callerRead) return loadAffiliateStats(app, caller.affiliateId);
    const row = callerRead as unknown as StatsReadRow;
    return statsFromRow(app, row, new Date(row.read_at_ms));
  },
});
