import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { auditLog } from '../db/schema/audit-log.ts';
import type { Tx } from '../db/transaction.ts';

// The audit log (docs/product/money.md#audit): every operator action is written in the transaction of the change it
// records, with the operator as actor: features/admin/audit-log.ts lists it for the console.

export interface AuditEntry {
  actor: string;
  action: string;
  subject: string;
  details: Record<string, unknown>;
  at: Date;
}

/** Writes one entry; answers its id. */
export async function recordAudit(tx: Pick<Tx, 'db'>, entry: AuditEntry): Promise<string> {
  const [row] = await tx.db
    .insert(auditLog)
    .values({
      actor: entry.actor,
      action: entry.action,
      subject: entry.subject,
      details: entry.details,
      createdAt: entry.at,
    })
    .returning({ id: auditLog.id });
  return String(row!.id);
}

/**
 * `audit_log` as the auth library's adapter sees it, so that signup writes its entry inside the
 * library's transaction (features/affiliate/signup.ts): the adapter insists on writing a record id,
 * and the entry's subject — the new profile's id, one per signup — is that id. The row's own id keeps
 * its identity default.
 */
export const auditAuthTable = pgTable('audit_log', {
  id: text('subject').primaryKey(),
  actor: text('actor'),
  action: text('action').notNull(),
  details: jsonb('details'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/** The adapter model of `auditAuthTable` (declared with the auth library's other models). */
export const AUDIT_AUTH_MODEL = {
  auditEntry: {
    fields: {
      actor: { type: 'string', required: false },
      action: { type: 'string', required: true },
      details: { type: 'json', required: false },
      createdAt: { type: 'date', required: true },
    },
  },
} as const;
