import { noInputSchema } from '@skanova/shared/callable/schemas';
import { listGroups } from '../../features/rewards/groups.ts';
import { defineCallable } from '../../http/callable.ts';

/** Every partner group with its rule in force, its versions and affiliates (docs/product/money.md#operators-groups-rules-and-campaigns). */
export const adminListGroups = defineCallable({
  name: 'adminListGroups',
  access: 'admin',
  input: noInputSchema,
  async handler(_input, { app }) {
    return { groups: await listGroups(app) };
  },
});
