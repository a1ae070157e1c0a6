import { adminListAuditLogSchema } from '@skanova/shared/admin/schemas';
import { listAuditLog } from '../../features/admin/audit-log.ts';
import { defineCallable } from '../../http/callable.ts';

/** The audit log, newest first, filtered by an action or its beginning; paged. */
export const adminListAuditLog = defineCallable({
  name: 'adminListAuditLog',
  access: 'admin',
  input: adminListAuditLogSchema,
  async handler(input, { app }) {
    return listAuditLog(app, input);
  },
});
