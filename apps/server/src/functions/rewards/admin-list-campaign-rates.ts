import { adminListCampaignRatesSchema } from '@skanova/shared/rewards/schemas';
import { listCampaignRates } from '../../features/rewards/campaign-rates.ts';
import { defineCallable } from '../../http/callable.ts';

/** The campaign rates of an affiliate's referral codes. */
export const adminListCampaignRates = defineCallable({
  name: 'adminListCampaignRates',
  access: 'admin',
  input: adminListCampaignRatesSchema,
  async handler(input, { app }) {
    return { rates: await listCampaignRates(app, input) };
  },
});
