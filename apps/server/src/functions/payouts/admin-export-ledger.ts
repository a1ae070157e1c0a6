import { adminExportLedgerSchema } from '@skanova/shared/payouts/schemas';
import { exportLedger } from '../../features/payouts/ledger-export.ts';
import { defineCallable } from '../../http/callable.ts';

/** The accountant's CSV files of the ledger for whole UTC months (docs/product/money.md#ledger-export); audit-logged. */
export const adminExportLedger = defineCallable({
  name: 'adminExportLedger',
  access: 'admin',
  input: adminExportLedgerSchema,
  async handler(input, { app, caller }) {
    return exportLedger(app, { ...input, actor: caller.userId });
  },
});
