import { adminGetReviewCaseSchema } from '@skanova/shared/admin/review';
import { getReviewCase } from '../../features/admin/review-cases.ts';
import { defineCallable } from '../../http/callable.ts';

/** A review case: its signals in plain words, their evidence, its commissions (docs/product/review.md#the-review-queue). */
export const adminGetReviewCase = defineCallable({
  name: 'adminGetReviewCase',
  access: 'admin',
  input: adminGetReviewCaseSchema,
  async handler(input, { app }) {
    return getReviewCase(app, input.caseId);
  },
});
