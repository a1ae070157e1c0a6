import { noInputSchema } from '@skanova/shared/callable/schemas';
import { listAffiliateCommissions } from '../../features/rewards/affiliate-rule.ts';
import { defineCallable } from '../../http/callable.ts';

/** The caller's latest commissions, each with why it is that amount (the Payments tab). */
export const getAffiliateCommissions = defineCallable({
  name: 'getAffiliateCommissions',
  access: 'affiliate',
  input: noInputSchema,
  async handler(_input, { app, caller }) {
    return { commissions: await listAffiliateCommissions(app, caller) };
  },
});
