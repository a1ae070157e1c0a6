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
