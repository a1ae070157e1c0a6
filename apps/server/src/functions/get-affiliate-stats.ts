import { noInputSchema } from '@skanova/shared/callable/schemas';
import { loadAffiliateStats } from '../features/affiliate/affiliate-stats.ts';
import { defineCallable } from '../http/callable.ts';

/**
 * The dashboard's statistics (docs/product/money.md#statistics, docs/product/calls-and-data.md#server-functions getAffiliateStats): earnings, clicks,
 * conversions, tier, referral codes with their links, active visitors and the next payout, all
 * computed from the caller's own rows.
 */
export const getAffiliateStats = defineCallable({
  name: 'getAffiliateStats',
  access: 'affiliate',
  input: noInputSchema,
  async handler(_input, { app, caller }) {
    return loadAffiliateStats(app, caller.affiliateId);
  },
});
