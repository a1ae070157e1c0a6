import { adminDeleteCampaignRateSchema } from '@skanova/shared/rewards/schemas';
import { deleteCampaignRate } from '../../features/rewards/campaign-rates.ts';
import { defineCallable } from '../../http/callable.ts';

/** Deletes a campaign rate that priced no commission; audit-logged. */
export const adminDeleteCampaignRate = defineCallable({
  name: 'adminDeleteCampaignRate',
  access: 'admin',
  input: adminDeleteCampaignRateSchema,
  async handler(input, { app, caller }) {
    return deleteCampaignRate(app, caller, input);
  },
});
