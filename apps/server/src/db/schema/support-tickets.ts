import type { TicketStatus } from '@skanova/shared/admin/schemas';
import type { ContactSubject } from '@skanova/shared/support/schemas';
import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// Tickets of the support contact form (migrations/*.sql are the source of truth; keep both in step).

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const supportTickets = pgTable('support_tickets', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  subject: text('subject').$type<ContactSubject>().notNull(),
  message: text('message').notNull(),
  language: text('language').notNull(),
  ipHash: text('ip_hash'),
  status: text('status').$type<TicketStatus>().notNull().default('open'),
  createdAt: createdAt(),
  handledAt: timestamp('handled_at', { withTimezone: true, mode: 'date' }),
});
