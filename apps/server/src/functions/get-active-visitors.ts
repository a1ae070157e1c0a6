import { noInputSchema } from '@skanova/shared/callable/schemas';
import { countActiveVisitors } from '../features/affiliate/active-visitors.ts';
import { defineCallable } from '../http/callable.ts';

/** The overview's "real-time active users" refresh action (docs/product/attribution.md#active-visitors): one small query. */
export const getActiveVisitors = defineCallable({
  name: 'getActiveVisitors',
  access: 'affiliate',
  input: noInputSchema,
  async handler(_input, { app, caller }) {
    return countActiveVisitors(app, caller.affiliateId);
  },
});
