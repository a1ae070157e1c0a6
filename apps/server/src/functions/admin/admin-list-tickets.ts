import { adminListTicketsSchema } from '@skanova/shared/admin/schemas';
import { listTickets } from '../../features/admin/tickets.ts';
import { defineCallable } from '../../http/callable.ts';

/** Support tickets from the contact form, newest first, by status; paged. */
export const adminListTickets = defineCallable({
  name: 'adminListTickets',
  access: 'admin',
  input: adminListTicketsSchema,
  async handler(input, { app }) {
    return listTickets(app, input);
  },
});
