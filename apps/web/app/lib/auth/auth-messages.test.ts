import { describe, expect, it } from 'vitest';
import enAuth from '@skanova/shared/i18n/en/auth.json';
import frAuth from '@skanova/shared/i18n/fr/auth.json';
import { AuthError } from './auth-client';
import { newPasswordSchema, passwordResetRequestSchema } from '@skanova/shared/affiliate/schemas';
import { checkForm } from '@skanova/shared/callable/field-errors';
import { leadingErrors } from '../form-errors';
import { NEW_PASSWORD_ORDER, loginErrorKey, resetErrorKey } from './auth-messages';

/** What the reset form shows for a new password: the leading errors of its shared schema. */
function newPasswordProblem(password: string, confirmPassword: string) {
  const checked = checkForm(newPasswordSchema, { password, confirmPassword });
  return checked.success ? null : leadingErrors(checked.errors, NEW_PASSWORD_ORDER);
}

/** What the reset-link form shows for an address. */
function resetEmailProblem(email: string) {
  const checked = checkForm(passwordResetRequestSchema, { email });
  return checked.success ? null : checked.errors;
}

/** The English text of an `auth` key, as the page shows it. */
function english(key: string): string {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], enAuth) as string;
}

/** The French text of an `auth` key. */
function french(key: string): string {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], frAuth) as string;
}

describe('login messages (docs/product/messages.md#sign-in-messages)', () => {
  it.each([
    ['user-not-found', 'Incorrect email or password.'],
    ['wrong-password', 'Incorrect email or password.'],
    ['too-many-requests', 'Too many login attempts. Please try again later.'],
    ['user-disabled', 'This account has been disabled.'],
    ['network', 'Login failed. Please try again.'],
    ['unknown', 'Login failed. Please try again.'],
  ] as const)('%s → %s', (code, text) => {
    expect(english(loginErrorKey(new AuthError(code)))).toBe(text);
  });

  it('words the address lock with the way out (a password reset), in both languages', () => {
    const key = loginErrorKey(new AuthError('address-locked'));
    expect(english(key)).toMatch(/reset your password/);
    expect(french(key)).toMatch(/réinitialisez votre mot de passe/);
  });

  it('words anything that is not an AuthError as the generic failure', () => {
    expect(loginErrorKey(new TypeError('fetch failed'))).toBe('login.errors.generic');
  });
});

describe('reset password', () => {
  it('maps the limit and a refused password, and nothing else, to their own messages', () => {
    expect(resetErrorKey(new AuthError('too-many-requests'))).toBe('errors.tooManyRequests');
    expect(resetErrorKey(new AuthError('weak-password'))).toBe('errors.passwordTooShort');
    expect(resetErrorKey(new AuthError('network'))).toBe('errors.generic');
  });

  it('checks the new password like signup does', () => {
    const error = (path: string, key: string) => ({ path, key: `auth:errors.${key}` });
    expect(newPasswordProblem('', '')).toEqual([
      error('password', 'allFieldsRequired'),
      error('confirmPassword', 'allFieldsRequired'),
    ]);
    expect(newPasswordProblem('long-enough', 'long-enougH')).toEqual([error('confirmPassword', 'passwordMismatch')]);
    expect(newPasswordProblem('short', 'short')).toEqual([error('password', 'passwordTooShort')]);
    expect(newPasswordProblem('short', 'other')).toEqual([error('confirmPassword', 'passwordMismatch')]);
    expect(newPasswordProblem('x'.repeat(129), 'x'.repeat(129))).toEqual([error('password', 'passwordTooLong')]);
    expect(newPasswordProblem('long-enough', 'long-enough')).toBeNull();
  });

  it('asks for a usable address', () => {
    expect(resetEmailProblem('  ')).toEqual([{ path: 'email', key: 'auth:errors.emailRequired' }]);
    expect(resetEmailProblem('ana@')).toEqual([{ path: 'email', key: 'auth:errors.emailInvalid' }]);
    expect(resetEmailProblem(' ana@example.com ')).toBeNull();
  });
});
