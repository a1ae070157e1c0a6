import { PASSWORD_MAX_LENGTH } from '@skanova/shared/affiliate/constants';
import { PASSWORD_MIN_LENGTH } from '@skanova/shared/affiliate/programme';
import { AuthError } from './auth-error';

// Which message (a key of the `auth` namespace) each failure of the sign-in forms shows: the
// library's own texts never reach the page (docs/product/rules-and-constants.md#accounts-and-sessions).

/** Variables every `auth` message may use. */
export const PASSWORD_LIMITS = { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH } as const;

const codeOf = (error: unknown) => (error instanceof AuthError ? error.code : 'unknown');

/** Login failures (docs/product/messages.md#sign-in-messages catalogue). */
export function loginErrorKey(error: unknown): string {
  switch (codeOf(error)) {
    case 'user-not-found':
    case 'wrong-password':
      return 'login.errors.invalidCredentials';
    case 'too-many-requests':
      return 'login.errors.tooManyRequests';
    case 'address-locked':
      return 'login.errors.addressLocked';
    case 'user-disabled':
      return 'login.errors.disabled';
    default:
      return 'login.errors.generic';
  }
}

/** Failures of the reset-link request and of the new password. */
export function resetErrorKey(error: unknown): string {
  switch (codeOf(error)) {
    case 'too-many-requests':
      return 'errors.tooManyRequests';
    case 'weak-password':
      return 'errors.passwordTooShort';
    default:
      return 'errors.generic';
  }
}

/**
 * Which message a new password and its confirmation show first (docs/product/rules-and-constants.md#validation, as signup's step 1): a
 * missing field, then different passwords, then the password's own length.
 */
export const NEW_PASSWORD_ORDER = ['auth:errors.allFieldsRequired', 'auth:errors.passwordMismatch'] as const;
