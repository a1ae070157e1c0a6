import { adminArchiveGroupSchema } from '@skanova/shared/rewards/schemas';
import { archiveGroup } from '../../features/rewards/groups.ts';
import { defineCallable } from '../../http/callable.ts';

/** Archives a group no affiliate is in (never the default group); audit-logged. */
export const adminArchiveGroup = defineCallable({
  name: 'adminArchiveGroup',
  access: 'admin',
  input: adminArchiveGroupSchema,
  async handler(input, { app, caller }) {
    return archiveGroup(app, caller, input);
  },
});
