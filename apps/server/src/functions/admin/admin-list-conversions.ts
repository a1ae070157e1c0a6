import { adminListConversionsSchema } from '@skanova/shared/admin/schemas';
import { listConversions } from '../../features/admin/conversions.ts';
import { defineCallable } from '../../http/callable.ts';

/** Every affiliate's conversions, filtered by status, affiliate, code and UTC days; paged. */
export const adminListConversions = defineCallable({
  name: 'adminListConversions',
  access: 'admin',
  input: adminListConversionsSchema,
  async handler(input, { app }) {
    return listConversions(app, input);
  },
});
