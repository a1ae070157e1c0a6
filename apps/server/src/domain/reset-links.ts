import { and, eq, like, ne } from 'drizzle-orm';
import { authVerifications } from '../db/schema/auth.ts';
import type { AppServices } from '../services.ts';

// Password-reset links (docs/decisions/016-security-hardening.md, "Reset links and sessions"): a link
// is the auth library's verification row `reset-password:<token>` whose value is the account's id.
// Only the newest link of an account works, and any change of password — with the current password,
// with a link, or an operator's set-password link being used — ends every link issued before it. The
// sign-in feature (e-mailed links, changes) and the operators' feature (set-password links) both
// apply this one rule.

/** The auth library's identifier prefix of a password-reset token. */
export const RESET_IDENTIFIER_PREFIX = 'reset-password:';

/**
 * Deletes the account's reset links, except the one of `keepToken` (the link just issued): the links
 * issued before it no longer set a password.
 */
export async function endResetLinks(
  app: Pick<AppServices, 'database'>,
  userId: string,
  keepToken?: string,
): Promise<void> {
  await app.database.db
    .delete(authVerifications)
    .where(
      and(
        eq(authVerifications.value, userId),
        like(authVerifications.identifier, `${RESET_IDENTIFIER_PREFIX}%`),
        keepToken === undefined
          ? undefined
          : ne(authVerifications.identifier, `${RESET_IDENTIFIER_PREFIX}${keepToken}`),
      ),
    );
}
