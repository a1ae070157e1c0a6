import type { AnyCallable } from '../../http/callable.ts';

/** The operator console's functions (access: admin). */
export const adminCallables: readonly AnyCallable[] = [];
