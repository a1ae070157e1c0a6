import { updatePaymentMethodRequestSchema } from '@skanova/shared/affiliate/schemas';
import { updatePaymentMethod } from '../features/affiliate/update-payment-method.ts';
import { defineCallable } from '../http/callable.ts';

/**
 * Replaces the caller's payment method (docs/product/rules-and-constants.md#validation, docs/product/calls-and-data.md#server-functions). Both fields are read as they
 * come: the shared validation answers each mistake with its own detail code (missing-payment-method,
 * missing-payment-details, invalid-iban, invalid-iban-checksum, invalid-bic …), as the form does.
 */
export const updateAffiliatePaymentMethod = defineCallable({
  name: 'updateAffiliatePaymentMethod',
  access: 'affiliate',
  input: updatePaymentMethodRequestSchema,
  async handler(data, { app, caller }) {
    const paymentMethod = await updatePaymentMethod(app, caller, data?.paymentMethod, data?.paymentDetails);
    return { success: true as const, paymentMethod };
  },
});
