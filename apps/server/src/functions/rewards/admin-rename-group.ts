import { adminRenameGroupSchema } from '@skanova/shared/rewards/schemas';
import { renameGroup } from '../../features/rewards/groups.ts';
import { defineCallable } from '../../http/callable.ts';

/** A group's name (the operators' label; its id stays); audit-logged with both names. */
export const adminRenameGroup = defineCallable({
  name: 'adminRenameGroup',
  access: 'admin',
  input: adminRenameGroupSchema,
  async handler(input, { app, caller }) {
    return renameGroup(app, caller, input);
  },
});
