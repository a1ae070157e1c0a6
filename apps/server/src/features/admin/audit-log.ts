import type { AdminListAuditLogRequest } from '@skanova/shared/admin/schemas';
import type { AdminAuditEntry, AdminPage } from '@skanova/shared/admin/responses';
import { count, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AppContext } from '../../context.ts';
import { auditLog } from '../../db/schema/audit-log.ts';
import { affiliates } from '../../db/schema/affiliates.ts';
import { authUsers } from '../../db/schema/auth.ts';
import { likeLiteral, paging } from './paging.ts';

// The console's view of the audit log (domain/audit-log.ts writes it), newest first, with who did it
// and, for an entry about an affiliate, who that affiliate is (the console writes the entry in words:
// apps/web/app/features/admin/audit-entry.ts).

/** Actions whose subject is an affiliate's id; the others name it, when they concern one, in `details.affiliateId`. */
const AFFILIATE_SUBJECT = String.raw`^(affiliate\.|payment_method\.|password\.)`;

const subjectUsers = alias(authUsers, 'subject_users');

export async function listAuditLog(
  app: AppContext,
  input: AdminListAuditLogRequest,
): Promise<AdminPage<AdminAuditEntry>> {
  const at = paging(input);
  const where = input.action ? sql`${auditLog.action} LIKE ${`${likeLiteral(input.action)}%`} ESCAPE '\\'` : undefined;
  const affiliateOf = sql`coalesce(${auditLog.details} ->> 'affiliateId', CASE WHEN ${auditLog.action} ~ ${AFFILIATE_SUBJECT} THEN ${auditLog.subject} END)`;
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
        affiliateId: affiliates.id,
        firstName: affiliates.firstName,
        lastName: affiliates.lastName,
        affiliateEmail: subjectUsers.email,
      })
      .from(auditLog)
      .leftJoin(authUsers, eq(authUsers.id, auditLog.actor))
      .leftJoin(affiliates, sql`${affiliates.id} = ${affiliateOf}`)
      .leftJoin(subjectUsers, eq(subjectUsers.id, affiliates.userId))
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(at.limit)
      .offset(at.offset),
    app.database.db.select({ total: count() }).from(auditLog).where(where),
  ]);
  return {
    items: rows.map(({ affiliateId, firstName, lastName, affiliateEmail, ...row }) => {
      const name = [firstName, lastName].filter(Boolean).join(' ');
      return {
        ...row,
        id: String(row.id),
        createdAt: row.createdAt.toISOString(),
        affiliate: affiliateId ? { id: affiliateId, name: name || null, email: affiliateEmail ?? null } : null,
      };
    }),
    total: counted?.total ?? 0,
    page: at.page,
    pageSize: at.pageSize,
  };
}
