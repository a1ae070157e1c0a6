import { adminReverseConversionSchema } from '@skanova/shared/admin/schemas';
import type { AdminConversionReversal } from '@skanova/shared/admin/responses';
import { reverseConversion } from '../../domain/reverse-conversion.ts';
import { defineCallable } from '../../http/callable.ts';
import { CallableError } from '../../lib/callable-error.ts';

/**
 * An operator takes a commission back, with a reason (docs/product/money.md#refunds-and-clawback, docs/product/rules-and-constants.md#security): reversed while not yet in a
 * payout, a deduction from the next payout once it is. Audit-logged with the operator as actor.
 */
export const adminReverseConversion = defineCallable({
  name: 'adminReverseConversion',
  access: 'admin',
  input: adminReverseConversionSchema,
  async handler(input, { app, caller }): Promise<AdminConversionReversal> {
    const result = await reverseConversion(app, {
      conversionId: Number(input.conversionId),
      reason: input.reason,
      actor: caller.userId,
    });
    if (!result) throw new CallableError('not-found', 'No such conversion.', { code: 'not-found' });
    return { conversionId: input.conversionId, outcome: result.outcome };
  },
});
