import { adminListAffiliatesSchema } from '@skanova/shared/admin/schemas';
import { listAffiliates } from '../../features/admin/affiliates.ts';
import { defineCallable } from '../../http/callable.ts';

/** The console's affiliate list: search by name, e-mail, company or code; filter by status; paged. */
export const adminListAffiliates = defineCallable({
  name: 'adminListAffiliates',
  access: 'admin',
  input: adminListAffiliatesSchema,
  async handler(input, { app }) {
    return listAffiliates(app, input);
  },
});
