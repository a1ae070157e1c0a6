import type { AdminListAuditLogRequest } from '@skanova/shared/admin/schemas';
import type { AdminAuditEntry, AdminPage } from '@skanova/shared/admin/responses';
import { count, desc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { auditLog } from '../../db/schema/audit-log.ts';
import { authUsers } from '../../db/schema/auth.ts';
import { likeLiteral, paging } from './paging.ts';

// The console's view of the audit log (domain/audit-log.ts writes it), newest first.

export async function listAuditLog(
  app: AppContext,
  input: AdminListAuditLogRequest,
): Promise<AdminPage<AdminAuditEntry>> {
  const at = paging(input);
  const where = input.action ? sql`${auditLog.action} LIKE ${`${likeLiteral(input.action)}%`} ESCAPE '\\'` : undefined;
  const [rows, [counted]] = await Promise.all([
    app.database.db
      .select({
        id: auditLog.id,
        actor: auditLog.actor,
        actorEmail: authUsers.email,
        action: auditLog.action,
        subject: auditLog.subject,
        details: auditLog.details,
        createdAt: auditLog.createdAt,
      })
      .from(auditLog)
      .leftJoin(authUsers, eq(authUsers.id, auditLog.actor))
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(at.limit)
      .offset(at.offset),
    app.database.db.select({ total: count() }).from(auditLog).where(where),
  ]);
  return {
    items: rows.map((row) => ({ ...row, id: String(row.id), createdAt: row.createdAt.toISOString() })),
    total: counted?.total ?? 0,
    page: at.page,
    pageSize: at.pageSize,
  };
}
