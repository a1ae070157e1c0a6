import { bigint, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

// The audit log (migrations/*.sql are the source of truth; keep both in step).

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const auditLog = pgTable('audit_log', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  actor: text('actor'),
  action: text('action').notNull(),
  subject: text('subject'),
  details: jsonb('details'),
  createdAt: createdAt(),
});
