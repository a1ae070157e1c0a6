import { noInputSchema } from '@skanova/shared/callable/schemas';
import { loadUnpaidEarnings } from '../features/affiliate/unpaid-earnings.ts';
import { defineCallable } from '../http/callable.ts';

/** The caller's unpaid earnings by where they stand, with the days their pending commissions become payable (the Payments tab). */
export const getAffiliateUnpaidEarnings = defineCallable({
  name: 'getAffiliateUnpaidEarnings',
  access: 'affiliate',
  input: noInputSchema,
  async handler(_input, { app, caller }) {
    return loadUnpaidEarnings(app, caller.affiliateId);
  },
});
