import { describe, expect, it } from 'vitest';
import enDashboard from '@skanova/shared/i18n/en/dashboard.json';
import { CallableClientError } from '../../lib/callable';
import { AuthError } from '../../lib/auth/auth-client';
import { type PasswordChange, passwordChangeErrors } from './change-password-form';
import { deleteErrorKey } from './delete-account';

/** The key (under settings.password.errors) of the message the form shows, or null. */
function passwordChangeError(values: PasswordChange): string | null {
  const key = passwordChangeErrors(values)[0]?.key;
  return key ? key.replace('dashboard:settings.password.errors.', '') : null;
}

describe('passwordChangeError', () => {
  const valid = { currentPassword: 'old password', newPassword: 'new password', confirmPassword: 'new password' };

  it('accepts a complete form whose new password is long enough and confirmed', () => {
    expect(passwordChangeError(valid)).toBeNull();
  });

  it('names what is wrong', () => {
    expect(passwordChangeError({ ...valid, currentPassword: '' })).toBe('required');
    expect(passwordChangeError({ ...valid, newPassword: 'short', confirmPassword: 'short' })).toBe('tooShort');
    expect(passwordChangeError({ ...valid, newPassword: 'x'.repeat(129), confirmPassword: 'x'.repeat(129) })).toBe(
      'tooLong',
    );
    expect(passwordChangeError({ ...valid, confirmPassword: 'new passwore' })).toBe('mismatch');
  });

  it('has a message for every answer', () => {
    for (const key of ['required', 'tooShort', 'tooLong', 'mismatch', 'wrongCurrent', 'tooMany', 'generic']) {
      expect(enDashboard.settings.password.errors).toHaveProperty(key);
    }
  });
});

describe('deleteErrorKey', () => {
  it('says why the server refused', () => {
    const refusal = (code: string) => new CallableClientError(code, 'message');
    expect(deleteErrorKey(refusal('payout-scheduled'))).toBe('payoutScheduled');
    expect(deleteErrorKey(refusal('balance-due'))).toBe('balanceDue');
    expect(deleteErrorKey(refusal('wrong-password'))).toBe('wrongPassword');
    expect(deleteErrorKey(refusal('too-many-requests'))).toBe('tooMany');
    expect(deleteErrorKey(refusal('internal'))).toBe('generic');
    expect(deleteErrorKey(new AuthError('unknown'))).toBe('generic');
  });

  it('has a message for every key', () => {
    for (const key of ['payoutScheduled', 'balanceDue', 'wrongPassword', 'tooMany', 'generic']) {
      expect(enDashboard.settings.delete.errors).toHaveProperty(key);
    }
  });
});
