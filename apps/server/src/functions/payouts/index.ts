import type { AnyCallable } from '../../http/callable.ts';
import { adminExportPayouts } from './admin-export-payouts.ts';
import { adminListPayouts } from './admin-list-payouts.ts';
import { adminMarkPayouts } from './admin-mark-payouts.ts';
import { adminRunPayouts } from './admin-run-payouts.ts';

/** The operator's payout functions (access: admin). */
export const payoutCallables: readonly AnyCallable[] = [
  adminListPayouts,
  adminRunPayouts,
  adminExportPayouts,
  adminMarkPayouts,
];
