import { noInputSchema } from '@skanova/shared/callable/schemas';
import { listPayouts } from '../features/affiliate/payouts.ts';
import { defineCallable } from '../http/callable.ts';

/** The caller's payouts, newest first (the Payments tab's history). */
export const getAffiliatePayouts = defineCallable({
  name: 'getAffiliatePayouts',
  access: 'affiliate',
  input: noInputSchema,
  async handler(_input, { app, caller }) {
    return { payouts: await listPayouts(app, caller.affiliateId) };
  },
});
