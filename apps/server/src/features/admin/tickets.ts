import type { AdminListTicketsRequest, TicketStatus } from '@skanova/shared/admin/schemas';
import type { AdminPage, AdminTicket } from '@skanova/shared/admin/responses';
import { isLanguage } from '@skanova/shared/site/constants';
import type { ContactSubject } from '@skanova/shared/support/schemas';
import type { AppContext, SignedInUser } from '../../context.ts';
import { CallableError } from '../../lib/callable-error.ts';
import { inTransaction } from '../../db/transaction.ts';
import { recordAudit } from '../../domain/audit-log.ts';
import { Conditions, isoTime, pageOf, paging } from './paging.ts';

// Support tickets filed from the contact form (BRIEF §5.9), in the operator console: listed newest
// first, and marked handled once answered (the answer itself goes by e-mail from the support inbox).

interface TicketRow {
  id: string;
  name: string;
  email: string;
  subject: ContactSubject;
  message: string;
  language: string;
  status: TicketStatus;
  created_at: Date | string;
  handled_at: Date | string | null;
}

const COLUMNS = 'id::text AS id, name, email, subject, message, language, status, created_at, handled_at';

function toTicket(row: TicketRow): AdminTicket {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    subject: row.subject,
    message: row.message,
    language: isLanguage(row.language) ? row.language : 'fr',
    status: row.status,
    createdAt: isoTime(row.created_at),
    handledAt: isoTime(row.handled_at),
  };
}

export async function listTickets(app: AppContext, input: AdminListTicketsRequest): Promise<AdminPage<AdminTicket>> {
  const where = new Conditions();
  if (input.status) where.add('status = $?', input.status);
  return pageOf<TicketRow, AdminTicket>(
    app.database.sql,
    {
      select: `SELECT ${COLUMNS} FROM support_tickets WHERE ${where}
               ORDER BY created_at DESC, id LIMIT $${where.next} OFFSET $${where.next + 1}`,
      count: `SELECT count(*)::int AS total FROM support_tickets WHERE ${where}`,
      params: where.params,
    },
    paging(input),
    toTicket,
  );
}

/** Marks the ticket handled (audit-logged); a ticket already handled is answered as it is. */
export async function markTicketHandled(
  app: AppContext,
  operator: SignedInUser,
  ticketId: string,
): Promise<AdminTicket> {
  const now = app.now();
  return inTransaction(app, async (tx) => {
    const updated = await tx.query<TicketRow>(
      `UPDATE support_tickets SET status = 'handled', handled_at = $2 WHERE id = $1 AND status = 'open' RETURNING ${COLUMNS}`,
      [ticketId, now.toISOString()],
    );
    if (updated.rows[0]) {
      await recordAudit(tx, {
        actor: operator.userId,
        action: 'ticket.handled',
        subject: ticketId,
        details: {},
        at: now,
      });
      return toTicket(updated.rows[0]);
    }
    const { rows } = await tx.query<TicketRow>(`SELECT ${COLUMNS} FROM support_tickets WHERE id = $1`, [ticketId]);
    if (!rows[0]) throw new CallableError('not-found', 'No such ticket.', { code: 'not-found' });
    return toTicket(rows[0]);
  });
}
