import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { TransactionQuery } from '../db/transaction.ts';

// The audit log (BRIEF §4): every operator action is written in the transaction of the change it
// records, with the operator as actor: features/admin/audit-log.ts lists it for the console.

export interface AuditEntry {
  actor: string;
  action: string;
  subject: string;
  details: Record<string, unknown>;
  at: Date;
}

/** Writes one entry; answers its id. */
export async function recordAudit(tx: TransactionQuery, entry: AuditEntry): Promise<string> {
  const { rows } = await tx.query<{ id: string }>(
    'INSERT INTO audit_log (actor, action, subject, details, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id::text AS id',
    [entry.actor, entry.action, entry.subject, JSON.stringify(entry.details), entry.at.toISOString()],
  );
  return rows[0]!.id;
}

/**
 * `audit_log` as the auth library's adapter sees it, so that signup writes its entry inside the
 * library's transaction (features/affiliates/signup.ts): the adapter insists on writing a record id,
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
