import { noInputSchema } from '@skanova/shared/callable/schemas';
import { loadTimeline } from '../features/affiliate/timeline.ts';
import { defineCallable } from '../http/callable.ts';

/** The overview chart: counted clicks and qualified conversions per UTC day, zero-filled. */
export const getAffiliateTimeline = defineCallable({
  name: 'getAffiliateTimeline',
  access: 'affiliate',
  input: noInputSchema,
  async handler(_input, { app, caller }) {
    return loadTimeline(app, caller.affiliateId);
  },
});
