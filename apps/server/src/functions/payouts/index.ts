import type { RegisteredCallable } from '../../http/callable.ts';
import { adminExportLedger } from './admin-export-ledger.ts';
import { adminExportPayouts } from './admin-export-payouts.ts';
import { adminListPayouts } from './admin-list-payouts.ts';
import { adminMarkPayouts } from './admin-mark-payouts.ts';
import { adminReconcileLedger } from './admin-reconcile-ledger.ts';
import { adminRunPayouts } from './admin-run-payouts.ts';

/** The operator's payout functions (access: admin). */
export const payoutCallables = [
  adminListPayouts,
  adminRunPayouts,
  adminExportPayouts,
  adminMarkPayouts,
  adminReconcileLedger,
  adminExportLedger,
] as const satisfies readonly RegisteredCallable[];
