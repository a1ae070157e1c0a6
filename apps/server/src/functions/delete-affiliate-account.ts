import { deleteAccountRequestSchema } from '@skanova/shared/affiliate/schemas';
import { deleteAffiliateAccount as deleteAccount } from '../features/affiliate/account-deletion.ts';
import { webHeaders } from '../features/auth/web-headers.ts';
import { defineCallable } from '../http/callable.ts';

/**
 * Deletes the caller's account, confirmed by its password (docs/product/money.md#disabled-and-deleted-accounts). Refused with
 * `failed-precondition` (details.code `payout-scheduled` or `balance-due`) while money is owed.
 * The answer also expires the session cookies: the session itself is already gone.
 */
export const deleteAffiliateAccount = defineCallable({
  name: 'deleteAffiliateAccount',
  access: 'affiliate',
  input: deleteAccountRequestSchema,
  async handler(input, { app, request, reply, caller }) {
    await deleteAccount(app, caller, input.password);
    const signOut = await app.auth.api
      .signOut({ headers: webHeaders(request), returnHeaders: true })
      .catch((error: unknown) => {
        app.log.warn({ err: error }, 'clearing the session cookie after account deletion failed');
        return null;
      });
    const cookies = signOut?.headers.getSetCookie() ?? [];
    if (cookies.length > 0) reply.header('set-cookie', cookies);
    return { deleted: true as const };
  },
});
