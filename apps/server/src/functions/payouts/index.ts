import type { AnyCallable } from '../../http/callable.ts';

/** The operator's payout functions (access: admin). */
export const payoutCallables: readonly AnyCallable[] = [];
