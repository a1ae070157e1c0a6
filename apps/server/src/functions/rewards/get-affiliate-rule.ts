import { noInputSchema } from '@skanova/shared/callable/schemas';
import { loadAffiliateRule } from '../../features/rewards/affiliate-rule.ts';
import { defineCallable } from '../../http/callable.ts';

/** The caller's rule in force now, for the dashboard and the terms page to write out. */
export const getAffiliateRule = defineCallable({
  name: 'getAffiliateRule',
  access: 'affiliate',
  input: noInputSchema,
  async handler(_input, { app, caller }) {
    return loadAffiliateRule(app, caller);
  },
});
