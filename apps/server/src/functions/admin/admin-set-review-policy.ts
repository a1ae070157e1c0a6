import { adminSetReviewPolicySchema } from '@skanova/shared/admin/review';
import { setReviewPolicy } from '../../features/admin/review-cases.ts';
import { defineCallable } from '../../http/callable.ts';

/** Sets a group's action for a signal: flag or hold; audited (docs/product/review.md#policies). */
export const adminSetReviewPolicy = defineCallable({
  name: 'adminSetReviewPolicy',
  access: 'admin',
  input: adminSetReviewPolicySchema,
  async handler(input, { app, caller }) {
    return setReviewPolicy(app, caller, input);
  },
});
