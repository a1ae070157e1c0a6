import { adminDecideReviewCaseSchema } from '@skanova/shared/admin/review';
import { decideReviewCase } from '../../features/admin/review-cases.ts';
import { defineCallable } from '../../http/callable.ts';

/** Approve, reject or ban, with a reason; audited (docs/product/review.md#actions). */
export const adminDecideReviewCase = defineCallable({
  name: 'adminDecideReviewCase',
  access: 'admin',
  input: adminDecideReviewCaseSchema,
  async handler(input, { app, caller }) {
    return decideReviewCase(app, caller, input);
  },
});
