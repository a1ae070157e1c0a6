// The failures of the sign-in endpoints, as the pages' codes (docs/product/messages.md#sign-in-messages login catalogue and the ones the
// other forms need). A module of its own so that the session check, which every affiliate page loads,
// does not bring the whole client along.

/** docs/product/messages.md#sign-in-messages login codes, plus the ones the other forms need. */
export type AuthErrorCode =
  | 'user-not-found'
  | 'wrong-password'
  | 'too-many-requests'
  /** Too many failed sign-ins for the address (from anyone): a password reset unlocks it. */
  | 'address-locked'
  | 'user-disabled'
  | 'invalid-token'
  | 'weak-password'
  | 'network'
  | 'unknown';

export class AuthError extends Error {
  constructor(readonly code: AuthErrorCode) {
    super(code);
    this.name = 'AuthError';
  }
}
