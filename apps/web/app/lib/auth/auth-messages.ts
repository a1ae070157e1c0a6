import { PASSWORD_MAX_LENGTH } from '@skanova/shared/affiliate/constants';
import { PASSWORD_MIN_LENGTH } from '@skanova/shared/affiliate/programme';
import { AuthError } from './auth-error';

// Which message (a key of the `auth` namespace) each failure of the sign-in forms shows: the
// library's own texts never reach the page (BRIEF §6).

/** Variables every `auth` message may use. */
export const PASSWORD_LIMITS = { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH } as const;

const codeOf = (error: unknown) => (error instanceof AuthError ? error.code : 'unknown');

/** Login failures (spec §8 catalogue). */
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

export interface FieldProblem {
  key: string;
  fields: string[];
}

/** A new password and its confirmation: both given, equal, long enough (spec §5, §9). */
export function newPasswordProblem(password: string, confirmPassword: string): FieldProblem | null {
  const empty = (
    [
      ['password', password],
      ['confirmPassword', confirmPassword],
    ] as const
  )
    .filter(([, value]) => value === '')
    .map(([field]) => field);
  if (empty.length > 0) return { key: 'errors.allFieldsRequired', fields: empty };
  if (password !== confirmPassword) return { key: 'errors.passwordMismatch', fields: ['confirmPassword'] };
  if (password.length < PASSWORD_MIN_LENGTH) return { key: 'errors.passwordTooShort', fields: ['password'] };
  if (password.length > PASSWORD_MAX_LENGTH) return { key: 'errors.passwordTooLong', fields: ['password'] };
  return null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The reset-link request's one field. */
export function resetEmailProblem(email: string): FieldProblem | null {
  if (email.trim() === '') return { key: 'errors.emailRequired', fields: ['email'] };
  return EMAIL.test(email.trim()) ? null : { key: 'errors.emailInvalid', fields: ['email'] };
}
