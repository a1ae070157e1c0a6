import { eq } from 'drizzle-orm';
import { rateLimits } from '../../db/schema/auth.ts';
import type { AppServices } from '../../services.ts';

// The per-address sign-in lock (docs/product/rules-and-constants.md#sign-in-limits): RATE_LIMIT_SIGNIN_PER_EMAIL_PER_HOUR failed sign-ins for
// one address, from any IPs, lock it until the hour's window ends — guessing one account's password
// from many addresses stops there. Anyone who knows the address can set it off, though, so the owner
// has a way out: a successful password reset (which proves the mailbox) clears the lock, and the
// lock's answer says so (`ADDRESS_LOCKED`, which the sign-in forms word as "reset your password").

type LockApp = Pick<AppServices, 'database' | 'hashIdentifier'>;

/** What the sign-in endpoint answers (429) while the address is locked. */
export const ADDRESS_LOCKED = {
  code: 'ADDRESS_LOCKED',
  message: 'Too many failed sign-ins for this address. Reset the password to sign in now, or try again later.',
} as const;

/** The address as the limits count it: trimmed and lower-case, like the accounts' addresses. */
export function normaliseAddress(email: string): string {
  return email.trim().toLowerCase();
}

/** The key of a per-address limit (`signin`, `reset`): the address only as a keyed hash. */
export function addressLimitKey(app: Pick<AppServices, 'hashIdentifier'>, name: string, email: string): string {
  return `${name}:email:${app.hashIdentifier(normaliseAddress(email))}`;
}

/** Forgets the failed sign-ins counted against `email` (every window): the address is unlocked. */
export async function clearSignInLock(app: LockApp, email: string): Promise<void> {
  await app.database.db.delete(rateLimits).where(eq(rateLimits.key, addressLimitKey(app, 'signin', email)));
}
