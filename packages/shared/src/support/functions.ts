import type { z } from 'zod';
import type { contactRequestSchema, contactResponseSchema } from './schemas.ts';

// The support page's server function (docs/product/calls-and-data.md#server-functions): the contact form files a ticket.

export interface SupportFunctions {
  submitContactForm: {
    request: z.input<typeof contactRequestSchema>;
    response: z.infer<typeof contactResponseSchema>;
  };
}
