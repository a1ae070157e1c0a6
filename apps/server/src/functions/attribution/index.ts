import type { AnyCallable } from '../../http/callable.ts';

/** The mobile app's functions (install attribution). */
export const attributionCallables: readonly AnyCallable[] = [];
