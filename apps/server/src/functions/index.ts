import type { AnyCallable } from '../http/callable.ts';

/** Every server function, registered as POST /api/fn/<name>. */
export const callables: readonly AnyCallable[] = [];
