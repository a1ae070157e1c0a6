import { adminCreateGroupSchema } from '@skanova/shared/rewards/schemas';
import { createGroup } from '../../features/rewards/groups.ts';
import { defineCallable } from '../../http/callable.ts';

/** A new partner group, without a rule until its first version is published; audit-logged. */
export const adminCreateGroup = defineCallable({
  name: 'adminCreateGroup',
  access: 'admin',
  input: adminCreateGroupSchema,
  async handler(input, { app, caller }) {
    return createGroup(app, caller, input);
  },
});
