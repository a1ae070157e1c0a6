import { adminMarkPayoutsSchema } from '@skanova/shared/payouts/schemas';
import { markPayouts } from '../../features/payouts/payout-lifecycle.ts';
import { defineCallable } from '../../http/callable.ts';

/** scheduled → sent → paid, or → failed with a reason (operators only); all of them or none. */
export const adminMarkPayouts = defineCallable({
  name: 'adminMarkPayouts',
  access: 'admin',
  input: adminMarkPayoutsSchema,
  async handler(input, { app, caller }) {
    return markPayouts(app, { ...input, actor: caller.userId });
  },
});
