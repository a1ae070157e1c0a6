import { noInputSchema } from '@skanova/shared/callable/schemas';
import { runLedgerReconciliation } from '../../features/payouts/ledger-reconciliation.ts';
import { defineCallable } from '../../http/callable.ts';

/** Checks every affiliate's ledger against the rows and the payouts (docs/product/money.md#the-ledger); audit-logged. */
export const adminReconcileLedger = defineCallable({
  name: 'adminReconcileLedger',
  access: 'admin',
  input: noInputSchema,
  async handler(_input, { app, caller }) {
    return runLedgerReconciliation(app, caller.userId);
  },
});
