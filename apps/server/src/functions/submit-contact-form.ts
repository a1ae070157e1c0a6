import { contactRequestSchema } from '@skanova/shared/support/schemas';
import { createSupportTicket, notifySupportInBackground } from '../features/support/support-tickets.ts';
import { defineCallable } from '../http/callable.ts';

/**
 * The support page's contact form (docs/product/routes-and-screens.md#support-page): validates with the form's own schema, files a
 * support ticket, then e-mails the support address. Rate-limited per client IP.
 */
export const submitContactForm = defineCallable({
  name: 'submitContactForm',
  // A `zod/mini` schema: the same one validates the form in the browser.
  input: contactRequestSchema,
  rateLimit: (ctx) => ({ max: ctx.config.RATE_LIMIT_CONTACT_PER_HOUR, timeWindow: '1 hour' }),
  async handler(input, { app, request }) {
    const ticket = await createSupportTicket(app, { ...input, ip: request.ip });
    notifySupportInBackground(app, { ...input, ...ticket });
    return { ticketId: ticket.id };
  },
});
