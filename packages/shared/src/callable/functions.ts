// Names of the callable server functions (BRIEF §3): `POST /api/fn/<name>`.
import type { z } from 'zod';
import type { contactRequestSchema, contactResponseSchema } from '../schemas/contact.ts';
import type { preInstallRequestSchema, preInstallResponseSchema } from '../schemas/pre-install.ts';

export const CALLABLE_PATH_PREFIX = '/api/fn/';

export interface CallableFunctions {
  storePreInstallData: {
    request: z.input<typeof preInstallRequestSchema>;
    response: z.infer<typeof preInstallResponseSchema>;
  };
  submitContactForm: {
    request: z.input<typeof contactRequestSchema>;
    response: z.infer<typeof contactResponseSchema>;
  };
}

export type CallableName = keyof CallableFunctions;
