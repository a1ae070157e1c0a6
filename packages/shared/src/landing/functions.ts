import type { z } from 'zod';
import type { preInstallRequestSchema, preInstallResponseSchema } from './schemas.ts';

// The referral landing's server function (docs/product/calls-and-data.md#server-functions): each visit is recorded, a tracking id answered.

export interface LandingFunctions {
  storePreInstallData: {
    request: z.input<typeof preInstallRequestSchema>;
    response: z.infer<typeof preInstallResponseSchema>;
  };
}
