import { describe, expect, it } from 'vitest';
import enAuth from '@skanova/shared/i18n/en/auth.json';
import frAuth from '@skanova/shared/i18n/fr/auth.json';
import { AuthError } from './auth-client';
import { loginErrorKey, newPasswordProblem, resetEmailProblem, resetErrorKey } from './auth-messages';

/** The English text of an `auth` key, as the page shows it. */
function english(key: string): string {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], enAuth) as string;
}

/** The French text of an `auth` key. */
function french(key: string): string {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], frAuth) as string;
}

describe('login messages (spec §8)', () => {
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
    expect(newPasswordProblem('', '')).toEqual({
      key: 'errors.allFieldsRequired',
      fields: ['password', 'confirmPassword'],
    });
    expect(newPasswordProblem('long-enough', 'long-enougH')).toEqual({
      key: 'errors.passwordMismatch',
      fields: ['confirmPassword'],
    });
    expect(newPasswordProblem('short', 'short')).toEqual({ key: 'errors.passwordTooShort', fields: ['password'] });
    expect(newPasswordProblem('x'.repeat(129), 'x'.repeat(129))).toEqual({
      key: 'errors.passwordTooLong',
      fields: ['password'],
    });
    expect(newPasswordProblem('long-enough', 'long-enough')).toBeNull();
  });

  it('asks for a usable address', () => {
    expect(resetEmailProblem('  ')).toEqual({ key: 'errors.emailRequired', fields: ['email'] });
    expect(resetEmailProblem('ana@')).toEqual({ key: 'errors.emailInvalid', fields: ['email'] });
    expect(resetEmailProblem(' ana@example.com ')).toBeNull();
  });
});
