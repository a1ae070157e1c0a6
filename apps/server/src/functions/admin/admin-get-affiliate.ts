import { adminGetAffiliateSchema } from '@skanova/shared/admin/requests';
import { getAffiliate } from '../../features/admin/affiliates.ts';
import { defineCallable } from '../../http/callable.ts';

/** One affiliate for the console: profile, account state, the dashboard's statistics and payouts. */
export const adminGetAffiliate = defineCallable({
  name: 'adminGetAffiliate',
  access: 'admin',
  input: adminGetAffiliateSchema,
  async handler(input, { app }) {
    return getAffiliate(app, input.affiliateId);
  },
});
