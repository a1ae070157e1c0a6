import { adminGetReviewPoliciesSchema } from '@skanova/shared/admin/review';
import { getReviewPolicies } from '../../features/admin/review-cases.ts';
import { defineCallable } from '../../http/callable.ts';

/** Each partner group's action per signal (docs/product/review.md#policies). */
export const adminGetReviewPolicies = defineCallable({
  name: 'adminGetReviewPolicies',
  access: 'admin',
  input: adminGetReviewPoliciesSchema,
  async handler(_input, { app }) {
    return getReviewPolicies(app);
  },
});
