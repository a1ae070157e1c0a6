import { adminListRuleVersionsSchema } from '@skanova/shared/rewards/schemas';
import { listRuleVersions } from '../../features/rewards/rule-versions.ts';
import { defineCallable } from '../../http/callable.ts';

/** A group and every version of its rule, newest first. */
export const adminListRuleVersions = defineCallable({
  name: 'adminListRuleVersions',
  access: 'admin',
  input: adminListRuleVersionsSchema,
  async handler(input, { app }) {
    return listRuleVersions(app, input);
  },
});
