import { adminGetAffiliateSchema } from '@skanova/shared/admin/schemas';
import { getAffiliateProfile } from '../../features/admin/affiliates.ts';
import { listPayouts } from '../../features/affiliate/payouts.ts';
import { loadAffiliateStats } from '../../features/affiliate/affiliate-stats.ts';
import { defineCallable } from '../../http/callable.ts';

/** One affiliate for the console: profile, account state, the dashboard's statistics and payouts. */
export const adminGetAffiliate = defineCallable({
  name: 'adminGetAffiliate',
  access: 'admin',
  input: adminGetAffiliateSchema,
  async handler(input, { app }) {
    const affiliate = await getAffiliateProfile(app, input.affiliateId);
    const [stats, payouts] = await Promise.all([
      loadAffiliateStats(app, input.affiliateId),
      listPayouts(app, input.affiliateId),
    ]);
    return { affiliate, stats, payouts };
  },
});
