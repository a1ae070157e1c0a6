import type { RegisteredCallable } from '../../http/callable.ts';
import { attributeInstall } from './attribute-install.ts';

/** The mobile app's functions (install attribution). */
export const attributionCallables = [attributeInstall] as const satisfies readonly RegisteredCallable[];
