import { describe, expect, it } from 'vitest';
import enPayment from '@skanova/shared/i18n/en/payment.json';
import frPayment from '@skanova/shared/i18n/fr/payment.json';
import enAuth from '@skanova/shared/i18n/en/auth.json';
import { CallableClientError } from './callable';
import { callFieldErrors, errorAt, fieldAria, fieldErrorText, leadingErrors } from './form-errors';
import { createTestI18n } from '../test-support/i18n';

const required = (path: string) => ({ path, key: 'auth:errors.allFieldsRequired' });
const mismatch = { path: 'confirmPassword', key: 'auth:errors.passwordMismatch' };
const tooShort = { path: 'password', key: 'auth:errors.passwordTooShort' };

describe('leadingErrors', () => {
  it('leads with the first error by the given order, then keeps every error with its key', () => {
    const order = ['auth:errors.allFieldsRequired', 'auth:errors.passwordMismatch', 'password'];
    expect(leadingErrors([tooShort, mismatch], order)).toEqual([mismatch]);
    expect(leadingErrors([required('email'), tooShort, required('confirmPassword')], order)).toEqual([
      required('email'),
      required('confirmPassword'),
    ]);
  });

  it('matches a path and the fields inside it, and keeps the given order otherwise', () => {
    const terms = { path: 'termsAccepted', key: 'auth:errors.termsRequired' };
    const bic = { path: 'paymentDetails.bic', key: 'payment:errors.invalid-bic' };
    expect(leadingErrors([terms, bic], ['paymentDetails', 'termsAccepted'])).toEqual([bic]);
    expect(leadingErrors([terms, bic])).toEqual([terms]);
    expect(leadingErrors([])).toEqual([]);
  });
});

describe('fieldErrorText', () => {
  const i18n = createTestI18n('en', {
    en: { auth: enAuth, payment: enPayment },
    fr: { payment: frPayment },
  });
  const t = i18n.getFixedT('en', 'auth');

  it('translates the key in its own namespace, with the values given', () => {
    expect(fieldErrorText(t, tooShort, [tooShort], { min: 8 })).toBe('Password must contain at least 8 characters.');
  });

  it('names the fields that share the message', () => {
    const missing = ['bankName', 'bic'].map((field) => ({
      path: `paymentDetails.${field}`,
      key: 'payment:errors.bank-details-required',
    }));
    expect(fieldErrorText(t, missing[0]!, missing)).toBe('Bank information is required: Bank name, BIC / SWIFT');
    expect(fieldErrorText(i18n.getFixedT('fr', 'auth'), missing[0]!, missing)).toBe(
      frPayment.errors['bank-details-required'].replace('{{fields}}', 'Nom de la banque, BIC / SWIFT'),
    );
  });
});

describe('fieldAria', () => {
  it('marks a field an error is about and points it at the message, after its hint', () => {
    const errors = [{ path: 'paymentDetails.bic', key: 'payment:errors.invalid-bic' }];
    expect(fieldAria(errors, 'paymentDetails.bic', 'form-error', 'bic-hint')).toEqual({
      'aria-invalid': true,
      'aria-describedby': 'bic-hint form-error',
    });
    expect(fieldAria(errors, 'paymentDetails.bankIban', 'form-error', 'iban-hint')).toEqual({
      'aria-invalid': undefined,
      'aria-describedby': 'iban-hint',
    });
    expect(fieldAria([], 'email', 'form-error')).toEqual({ 'aria-invalid': undefined, 'aria-describedby': undefined });
  });

  it('finds the error of a field', () => {
    expect(errorAt([tooShort, mismatch], 'confirmPassword')).toBe(mismatch);
    expect(errorAt([tooShort], 'email')).toBeUndefined();
  });
});

describe('callFieldErrors', () => {
  it('reads the field errors of a refused call, and of nothing else', () => {
    const fields = [{ path: 'email', key: 'auth:errors.emailTaken' }];
    expect(callFieldErrors(new CallableClientError('email-taken', 'taken', { code: 'email-taken', fields }))).toEqual(
      fields,
    );
    expect(callFieldErrors(new CallableClientError('internal', 'internal'))).toEqual([]);
    expect(callFieldErrors(new TypeError('boom'))).toEqual([]);
  });
});
