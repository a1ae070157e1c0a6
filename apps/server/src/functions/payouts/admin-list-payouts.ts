import { adminListPayoutsSchema } from '@skanova/shared/payouts/schemas';
import { listAdminPayouts } from '../../features/payouts/admin-payouts.ts';
import { defineCallable } from '../../http/callable.ts';

/** The payouts, filtered by status and payday, newest payday first (operators only). */
export const adminListPayouts = defineCallable({
  name: 'adminListPayouts',
  access: 'admin',
  input: adminListPayoutsSchema,
  async handler(input, { app }) {
    return { payouts: await listAdminPayouts(app, input) };
  },
});
