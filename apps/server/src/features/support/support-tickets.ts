import { DEFAULT_LANGUAGE } from '@skanova/shared/site/constants';
import type { ContactRequest, ContactSubject } from '@skanova/shared/support/schemas';
import type { AppContext } from '../../context.ts';
import { supportTickets } from '../../db/schema/support-tickets.ts';
import { escapeHtml } from '../../lib/html.ts';
import type { MailMessage } from '../../lib/mailer.ts';

// Support tickets filed from the public contact form (docs/product/routes-and-screens.md#support-page): the ticket is the record; the
// e-mail to the support address is a notification of it and may fail without losing anything.

/** Subject labels in the support team's e-mail (operators read English). */
const SUBJECT_LABELS: Record<ContactSubject, string> = {
  account: 'Account problem',
  subscription: 'Subscription question',
  technical: 'Technical problem',
  feedback: 'Feedback',
  other: 'Other',
};

export interface NewTicket extends ContactRequest {
  /** The client's IP address; only its keyed hash is stored. */
  ip: string;
}

export interface StoredTicket {
  id: string;
  createdAt: Date;
}

/** Stores the ticket (one autocommitted INSERT: durable once this resolves). */
export async function createSupportTicket(app: AppContext, ticket: NewTicket): Promise<StoredTicket> {
  const [row] = await app.database.db
    .insert(supportTickets)
    .values({
      name: ticket.name,
      email: ticket.email,
      subject: ticket.subject,
      message: ticket.message,
      language: ticket.language ?? DEFAULT_LANGUAGE,
      ipHash: app.hashIdentifier(ticket.ip),
      createdAt: app.now(),
    })
    .returning({ id: supportTickets.id, createdAt: supportTickets.createdAt });
  if (!row) throw new Error('support ticket insert returned no row');
  return row;
}

/**
 * Sends the support team's notification without making the caller wait: the ticket is already
 * stored, so a failing mail server is logged and never fails the visitor's request.
 */
export function notifySupportInBackground(app: AppContext, ticket: ContactRequest & StoredTicket): void {
  const message = supportTicketEmail(app, ticket);
  app.mailer.send(message).then(
    () => app.log.info({ ticketId: ticket.id }, 'support ticket e-mailed'),
    (error: unknown) =>
      app.log.error({ err: error, ticketId: ticket.id }, 'support ticket stored but its e-mail failed'),
  );
}

/** The notification to the support address: reply-to the visitor, text and HTML parts. */
export function supportTicketEmail(app: AppContext, ticket: ContactRequest & StoredTicket): MailMessage {
  const subjectLabel = SUBJECT_LABELS[ticket.subject];
  const language = ticket.language ?? DEFAULT_LANGUAGE;
  const fields: [string, string][] = [
    ['Ticket', ticket.id],
    ['Name', ticket.name],
    ['E-mail', ticket.email],
    ['Subject', subjectLabel],
    ['Language', language],
    ['Received', ticket.createdAt.toISOString()],
  ];
  const text = [...fields.map(([label, value]) => `${label}: ${value}`), '', ticket.message, ''].join('\n');
  const html = [
    '<!doctype html><html><body>',
    '<table>',
    ...fields.map(([label, value]) => `<tr><th align="left">${label}</th><td>${escapeHtml(value)}</td></tr>`),
    '</table>',
    `<p style="white-space:pre-wrap">${escapeHtml(ticket.message)}</p>`,
    '</body></html>',
  ].join('\n');
  return {
    to: app.config.SUPPORT_EMAIL,
    replyTo: ticket.email,
    subject: oneLine(`[${app.config.BRAND_NAME} support] ${subjectLabel} — ${ticket.name}`),
    text,
    html,
  };
}

/** Header values stay on one line whatever the visitor typed. */
function oneLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}
