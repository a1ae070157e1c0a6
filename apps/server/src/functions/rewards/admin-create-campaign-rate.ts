import { adminCreateCampaignRateSchema } from '@skanova/shared/rewards/schemas';
import { createCampaignRate } from '../../features/rewards/campaign-rates.ts';
import { defineCallable } from '../../http/callable.ts';

/** A referral code's own rate for whole UTC days, never overlapping another of the code's; audit-logged. */
export const adminCreateCampaignRate = defineCallable({
  name: 'adminCreateCampaignRate',
  access: 'admin',
  input: adminCreateCampaignRateSchema,
  async handler(input, { app, caller }) {
    return createCampaignRate(app, caller, input);
  },
});
