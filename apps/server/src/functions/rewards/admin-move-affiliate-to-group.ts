import { adminMoveAffiliateToGroupSchema } from '@skanova/shared/rewards/schemas';
import { moveAffiliateToGroup } from '../../features/rewards/affiliate-group.ts';
import { defineCallable } from '../../http/callable.ts';

/** Moves an affiliate to another group; audit-logged with the group left and the group joined. */
export const adminMoveAffiliateToGroup = defineCallable({
  name: 'adminMoveAffiliateToGroup',
  access: 'admin',
  input: adminMoveAffiliateToGroupSchema,
  async handler(input, { app, caller }) {
    return moveAffiliateToGroup(app, caller, input);
  },
});
