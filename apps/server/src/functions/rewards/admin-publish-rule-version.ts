import { adminPublishRuleVersionSchema } from '@skanova/shared/rewards/schemas';
import { publishRuleVersion } from '../../features/rewards/rule-versions.ts';
import { defineCallable } from '../../http/callable.ts';

/**
 * The next version of a group's rule, in force from its effective time (now by default): it prices
 * the events from then on, never what was earned (docs/product/money.md#partner-groups-and-reward-rules); audit-logged.
 */
export const adminPublishRuleVersion = defineCallable({
  name: 'adminPublishRuleVersion',
  access: 'admin',
  input: adminPublishRuleVersionSchema,
  async handler(input, { app, caller }) {
    return publishRuleVersion(app, caller, input);
  },
});
