import { adminRunPayoutsSchema } from '@skanova/shared/payouts/schemas';
import { PayoutRunError, runPayouts } from '../../features/payouts/payout-run.ts';
import { defineCallable } from '../../http/callable.ts';
import { CallableError } from '../../lib/callable-error.ts';

/**
 * Runs the payday's payouts now (operators only): what the scheduler does on the 15th, safe to
 * repeat. `aborted` while another run holds the job; `failed-precondition` for a payday to come.
 */
export const adminRunPayouts = defineCallable({
  name: 'adminRunPayouts',
  access: 'admin',
  input: adminRunPayoutsSchema,
  async handler(input, { app, caller }) {
    try {
      return await runPayouts(app, input.payday, { actor: caller.userId });
    } catch (error) {
      if (!(error instanceof PayoutRunError)) throw error;
      if (error.code === 'run-in-progress') throw new CallableError('aborted', error.message, { code: error.code });
      throw new CallableError('failed-precondition', error.message, { code: error.code });
    }
  },
});
