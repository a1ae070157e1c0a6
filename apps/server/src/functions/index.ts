import type { AnyCallable } from '../http/callable.ts';
import { createAffiliate } from './create-affiliate.ts';
import { storePreInstallData } from './store-pre-install-data.ts';
import { submitContactForm } from './submit-contact-form.ts';

/** Every server function, registered as POST /api/fn/<name>. */
export const callables: readonly AnyCallable[] = [
  submitContactForm,
  storePreInstallData,
  createAffiliate,
];
