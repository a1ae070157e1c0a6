import { adminMarkTicketHandledSchema } from '@skanova/shared/admin/schemas';
import { markTicketHandled } from '../../features/admin/tickets.ts';
import { defineCallable } from '../../http/callable.ts';

/** Closes a support ticket once it has been answered. */
export const adminMarkTicketHandled = defineCallable({
  name: 'adminMarkTicketHandled',
  access: 'admin',
  input: adminMarkTicketHandledSchema,
  async handler(input, { app, caller }) {
    return markTicketHandled(app, caller, input.ticketId);
  },
});
