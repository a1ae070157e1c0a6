import { adminListReviewCasesSchema } from '@skanova/shared/admin/review';
import { listReviewCases } from '../../features/admin/review-cases.ts';
import { defineCallable } from '../../http/callable.ts';

/** The review queue: open cases newest first, or decided ones (docs/product/review.md#the-review-queue). */
export const adminListReviewCases = defineCallable({
  name: 'adminListReviewCases',
  access: 'admin',
  input: adminListReviewCasesSchema,
  async handler(input, { app }) {
    return listReviewCases(app, input);
  },
});
