import type { AdminListAuditLogRequest } from '@skanova/shared/admin/schemas';
import type { AdminAuditEntry, AdminPage } from '@skanova/shared/admin/responses';
import type { AppContext } from '../../context.ts';
import { Conditions, isoTime, likeLiteral, pageOf, paging } from './paging.ts';

// The console's view of the audit log (domain/audit-log.ts writes it), newest first.

interface AuditRow {
  id: string;
  actor: string | null;
  actor_email: string | null;
  action: string;
  subject: string | null;
  details: unknown;
  created_at: Date | string;
}

export async function listAuditLog(
  app: AppContext,
  input: AdminListAuditLogRequest,
): Promise<AdminPage<AdminAuditEntry>> {
  const where = new Conditions();
  if (input.action) where.add("l.action LIKE $? ESCAPE '\\'", `${likeLiteral(input.action)}%`);
  const from = `FROM audit_log l LEFT JOIN auth_users u ON u.id = l.actor WHERE ${where}`;
  return pageOf<AuditRow, AdminAuditEntry>(
    app.database.sql,
    {
      select: `SELECT l.id::text AS id, l.actor, u.email AS actor_email, l.action, l.subject, l.details, l.created_at
               ${from} ORDER BY l.created_at DESC, l.id DESC LIMIT $${where.next} OFFSET $${where.next + 1}`,
      count: `SELECT count(*)::int AS total ${from}`,
      params: where.params,
    },
    paging(input),
    (row) => ({
      id: row.id,
      actor: row.actor,
      actorEmail: row.actor_email,
      action: row.action,
      subject: row.subject,
      details: typeof row.details === 'string' ? (JSON.parse(row.details) as unknown) : row.details,
      createdAt: isoTime(row.created_at),
    }),
  );
}
