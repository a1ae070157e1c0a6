import { adminGetWebVitalsSchema } from '@skanova/shared/admin/schemas';
import { webVitalsP75 } from '../../features/admin/web-vitals.ts';
import { defineCallable } from '../../http/callable.ts';

/** p75 of each web vital per page over the last days (docs/product/calls-and-data.md#other-endpoints). */
export const adminGetWebVitals = defineCallable({
  name: 'adminGetWebVitals',
  access: 'admin',
  input: adminGetWebVitalsSchema,
  async handler(input, { app }) {
    return webVitalsP75(app, input.days);
  },
});
