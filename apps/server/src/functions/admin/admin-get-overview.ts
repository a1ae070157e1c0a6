import { adminGetOverviewSchema } from '@skanova/shared/admin/schemas';
import { loadOverview } from '../../features/admin/overview.ts';
import { defineCallable } from '../../http/callable.ts';

/** The console's first screen: the programme's figures, the next payday, 12 months, what needs action. */
export const adminGetOverview = defineCallable({
  name: 'adminGetOverview',
  access: 'admin',
  input: adminGetOverviewSchema,
  async handler(_input, { app }) {
    return loadOverview(app);
  },
});
