import { randomBytes } from 'node:crypto';
import { runWithTransaction } from '@better-auth/core/context';
import { generateId } from 'better-auth';
import { AFFILIATE_RESET_PASSWORD_PAGE } from '@skanova/shared/affiliate/constants';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { auditLog } from '../../db/schema/audit-log.ts';
import { endResetLinks, RESET_IDENTIFIER_PREFIX } from '../../domain/reset-links.ts';

// Operators (docs/product/routes-and-screens.md#operator-console): the role `admin` on a sign-in account, given from the command line only
// (`npm run admin:create -- <email>`). A new account gets a random password nobody knows; either
// way the command prints a one-time link to the existing reset page, where the operator chooses
// their password. The link is a reset token of the auth library's own kind, so the reset flow
// needs nothing new.

/**
 * The set-password link lives a day, not the e-mailed reset link's hour: it is handed over by
 * whoever ran the command, through a channel of their choosing.
 */
export const OPERATOR_LINK_SECONDS = 24 * 60 * 60;

/** The auth library's verification identifier of a password-reset token. */
const resetIdentifier = (token: string) => `${RESET_IDENTIFIER_PREFIX}${token}`;

const emailSchema = z.email().max(254);

export class OperatorInputError extends Error {}

export interface OperatorSetup {
  userId: string;
  email: string;
  /** The account was created now (otherwise an existing one became an operator). */
  created: boolean;
  /** The account was disabled and no longer is. */
  unbanned: boolean;
  /** `${publicUrl}/affiliate/reset-password?token=…`, valid once until `expiresAt`. */
  setPasswordUrl: string;
  expiresAt: Date;
}

export async function createOperator(app: AppContext, rawEmail: string): Promise<OperatorSetup> {
  const parsed = emailSchema.safeParse(rawEmail.trim().toLowerCase());
  if (!parsed.success) throw new OperatorInputError(`Not an e-mail address: ${JSON.stringify(rawEmail)}`);
  const email = parsed.data;
  const auth = await app.auth.$context;
  const now = app.now();
  const expiresAt = new Date(now.getTime() + OPERATOR_LINK_SECONDS * 1000);
  const token = generateId(32);
  // Hashed before the transaction: on the embedded database it would hold the only connection meanwhile.
  const unusablePassword = await auth.password.hash(randomBytes(32).toString('base64url'));

  // The library's adapter inside its transaction: user, account and token commit together.
  const setup = await runWithTransaction(auth.adapter, async () => {
    const existing = await auth.internalAdapter.findUserByEmail(email);
    let userId: string;
    let unbanned = false;
    if (existing) {
      userId = existing.user.id;
      const user = existing.user as { banned?: boolean | null };
      // Whoever can run the command can already do anything: a ban does not stand in their way.
      unbanned = user.banned === true;
      await auth.internalAdapter.updateUser(userId, {
        role: 'admin',
        banned: false,
        banReason: null,
        banExpires: null,
        updatedAt: now,
      });
    } else {
      const user = await auth.internalAdapter.createUser(
        { email, name: email.split('@')[0] ?? email, emailVerified: false, role: 'admin' },
        { method: 'admin' },
      );
      userId = user.id;
      await auth.internalAdapter.createAccount({
        userId,
        providerId: 'credential',
        accountId: userId,
        password: unusablePassword,
      });
    }
    await auth.internalAdapter.createVerificationValue({
      value: userId,
      identifier: resetIdentifier(token),
      expiresAt,
    });
    return { userId, created: !existing, unbanned };
  });

  // Only the newest link works (domain/reset-links.ts): an earlier link, e-mailed or printed, ends.
  await endResetLinks(app, setup.userId, token);
  await app.database.db.insert(auditLog).values({
    actor: 'system',
    action: setup.created ? 'operator.created' : 'operator.promoted',
    subject: setup.userId,
    details: { email, unbanned: setup.unbanned, linkExpiresAt: expiresAt.toISOString() },
    createdAt: now,
  });
  const setPasswordUrl = `${app.config.publicUrl}${AFFILIATE_RESET_PASSWORD_PAGE}?token=${encodeURIComponent(token)}`;
  return { ...setup, email, setPasswordUrl, expiresAt };
}
