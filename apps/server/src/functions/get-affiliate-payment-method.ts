import { noInputSchema } from '@skanova/shared/callable/schemas';
import { loadPaymentMethod, summarisePaymentMethod } from '../domain/payment-method-store.ts';
import { defineCallable } from '../http/callable.ts';

/** The caller's payment method as the dashboard shows it (docs/product/calls-and-data.md#server-functions): the IBAN masked but its last 4. */
export const getAffiliatePaymentMethod = defineCallable({
  name: 'getAffiliatePaymentMethod',
  access: 'affiliate',
  input: noInputSchema,
  async handler(_input, { app, caller }) {
    const stored = await loadPaymentMethod(app, caller.affiliateId);
    return { success: true as const, paymentMethod: summarisePaymentMethod(app, stored) };
  },
});
