import type { AdminListTicketsRequest } from '@skanova/shared/admin/schemas';
import type { AdminPage, AdminTicket } from '@skanova/shared/admin/responses';
import { isLanguage } from '@skanova/shared/site/constants';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { AppContext, SignedInUser } from '../../context.ts';
import { supportTickets } from '../../db/schema/support-tickets.ts';
import { CallableError } from '../../lib/callable-error.ts';
import { inTransaction } from '../../db/transaction.ts';
import { recordAudit } from '../../domain/audit-log.ts';
import { paging } from './paging.ts';

// Support tickets filed from the contact form (docs/product/routes-and-screens.md#support-page), in the operator console: listed newest
// first, and marked handled once answered (the answer itself goes by e-mail from the support inbox).

type TicketRow = typeof supportTickets.$inferSelect;

function toTicket(row: TicketRow): AdminTicket {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    subject: row.subject,
    message: row.message,
    language: isLanguage(row.language) ? row.language : 'fr',
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    handledAt: row.handledAt?.toISOString() ?? null,
  };
}

export async function listTickets(app: AppContext, input: AdminListTicketsRequest): Promise<AdminPage<AdminTicket>> {
  const at = paging(input);
  const where = input.status ? eq(supportTickets.status, input.status) : undefined;
  const [rows, [counted]] = await Promise.all([
    app.database.db
      .select()
      .from(supportTickets)
      .where(where)
      .orderBy(desc(supportTickets.createdAt), asc(supportTickets.id))
      .limit(at.limit)
      .offset(at.offset),
    app.database.db.select({ total: count() }).from(supportTickets).where(where),
  ]);
  return { items: rows.map(toTicket), total: counted?.total ?? 0, page: at.page, pageSize: at.pageSize };
}

/** Marks the ticket handled (audit-logged); a ticket already handled is answered as it is. */
export async function markTicketHandled(
  app: AppContext,
  operator: SignedInUser,
  ticketId: string,
): Promise<AdminTicket> {
  const now = app.now();
  return inTransaction(app, async (tx) => {
    const [updated] = await tx.db
      .update(supportTickets)
      .set({ status: 'handled', handledAt: now })
      .where(and(eq(supportTickets.id, ticketId), eq(supportTickets.status, 'open')))
      .returning();
    if (updated) {
      await recordAudit(tx, {
        actor: operator.userId,
        action: 'ticket.handled',
        subject: ticketId,
        details: {},
        at: now,
      });
      return toTicket(updated);
    }
    const [ticket] = await tx.db.select().from(supportTickets).where(eq(supportTickets.id, ticketId));
    if (!ticket) throw new CallableError('not-found', 'No such ticket.', { code: 'not-found' });
    return toTicket(ticket);
  });
}
