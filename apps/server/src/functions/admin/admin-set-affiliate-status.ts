import { adminSetAffiliateStatusSchema } from '@skanova/shared/admin/schemas';
import { setAffiliateStatus } from '../../features/admin/affiliates.ts';
import { defineCallable } from '../../http/callable.ts';

/** Approve or refuse an application (e-mailed), disable or enable an account (docs/product/rules-and-constants.md#applications-and-disabled-accounts). */
export const adminSetAffiliateStatus = defineCallable({
  name: 'adminSetAffiliateStatus',
  access: 'admin',
  input: adminSetAffiliateStatusSchema,
  async handler(input, { app, caller }) {
    return setAffiliateStatus(app, caller, input);
  },
});
