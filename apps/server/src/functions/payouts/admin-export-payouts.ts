import { adminExportPayoutsSchema } from '@skanova/shared/payouts/schemas';
import { exportPayouts } from '../../features/payouts/payout-exports.ts';
import { defineCallable } from '../../http/callable.ts';

/**
 * The PayPal CSV or SEPA XML file of the payday's scheduled payouts (operators only); asked again,
 * the same file. `failed-precondition` when there is nothing to export.
 */
export const adminExportPayouts = defineCallable({
  name: 'adminExportPayouts',
  access: 'admin',
  input: adminExportPayoutsSchema,
  async handler(input, { app, caller }) {
    return exportPayouts(app, { ...input, actor: caller.userId });
  },
});
