/// <reference types="node" />
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { checkForm } from '../callable/field-errors.ts';
import { LANGUAGES } from '../site/constants.ts';
import { contactRequestSchema } from '../support/schemas.ts';
import {
  changePasswordSchema,
  createAffiliateRequestSchema,
  deleteAccountRequestSchema,
  newPasswordSchema,
  passwordResetRequestSchema,
  signInSchema,
  signupStepSchemas,
} from './schemas.ts';
import { paymentMethodFieldErrors, validatePaymentMethod } from './payment-method.ts';

// Each form's one schema (ADR 009): a valid form passes; each invalid field answers its path and its
// namespaced key; and every key a form can answer has a text in both languages.

const I18N = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../i18n');

function translation(lang: string, key: string): unknown {
  const [ns, rest] = key.split(':') as [string, string];
  const json: unknown = JSON.parse(readFileSync(path.join(I18N, lang, `${ns}.json`), 'utf8'));
  return rest.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], json);
}

/** Every key seen by the tests below: each must be translated in both languages. */
const seen = new Set<string>();

function errors(schema: z.ZodMiniType, values: unknown) {
  const checked = checkForm(schema, values);
  for (const error of checked.errors) seen.add(error.key);
  return checked.errors;
}

const IBAN = 'FR7630006000011234567890189';
const account = { email: 'ana@example.com', password: 'long-enough', confirmPassword: 'long-enough' };
const profile = { firstName: 'Ana', lastName: 'Martin', phone: null, companyName: '', website: 'https://example.com' };
const paymentStep = { paymentMethod: 'later', paymentDetails: null, termsAccepted: true };
const bank = { accountHolder: 'Ana Martin', bankName: 'BNP', bankIban: IBAN, bic: 'BNPAFRPP' };

describe('signup: one schema per step, composed into the request', () => {
  const [accountStep, profileStep, paymentStepSchema] = signupStepSchemas;

  it('accepts valid steps and the whole request', () => {
    expect(errors(accountStep, account)).toEqual([]);
    expect(errors(profileStep, profile)).toEqual([]);
    expect(errors(paymentStepSchema, paymentStep)).toEqual([]);
    expect(errors(paymentStepSchema, { ...paymentStep, paymentMethod: 'bank_transfer', paymentDetails: bank })).toEqual(
      [],
    );
    const { confirmPassword: _confirm, ...accountRequest } = account;
    expect(errors(createAffiliateRequestSchema, { ...accountRequest, ...profile, ...paymentStep })).toEqual([]);
  });

  it.each([
    ['email', { email: '' }, 'auth:errors.allFieldsRequired'],
    ['email', { email: 'ana@' }, 'auth:errors.emailInvalid'],
    ['email', { email: 'ana\u0000@example.com' }, 'auth:errors.invalidCharacters'],
    ['password', { password: '', confirmPassword: '' }, 'auth:errors.allFieldsRequired'],
    ['password', { password: 'short', confirmPassword: 'short' }, 'auth:errors.passwordTooShort'],
    ['password', { password: 'x'.repeat(129), confirmPassword: 'x'.repeat(129) }, 'auth:errors.passwordTooLong'],
    ['confirmPassword', { confirmPassword: 'long-enougH' }, 'auth:errors.passwordMismatch'],
  ])('step 1: %s %j → %s', (field, change, key) => {
    expect(errors(accountStep, { ...account, ...change })).toContainEqual({ path: field, key });
  });

  it.each([
    ['firstName', { firstName: ' ' }, 'auth:errors.namesRequired'],
    ['lastName', { lastName: '' }, 'auth:errors.namesRequired'],
    ['lastName', { lastName: 'M'.repeat(101) }, 'auth:errors.tooLong'],
    ['phone', { phone: '1'.repeat(41) }, 'auth:errors.tooLong'],
    ['companyName', { companyName: 'C'.repeat(201) }, 'auth:errors.tooLong'],
    ['website', { website: 'not a site' }, 'auth:errors.websiteInvalid'],
    ['website', { website: 'ftp://example.com' }, 'auth:errors.websiteInvalid'],
  ])('step 2: %s %j → %s', (field, change, key) => {
    expect(errors(profileStep, { ...profile, ...change })).toEqual([{ path: field, key }]);
  });

  it.each([
    [{ paymentMethod: 'bitcoin' }, [{ path: 'paymentMethod', key: 'auth:errors.paymentMethodRequired' }]],
    [{ termsAccepted: false }, [{ path: 'termsAccepted', key: 'auth:errors.termsRequired' }]],
    [
      { paymentMethod: 'paypal', paymentDetails: {} },
      [{ path: 'paymentDetails.paypalEmail', key: 'payment:errors.paypal-email-required' }],
    ],
    [
      { paymentMethod: 'bank_transfer', paymentDetails: { ...bank, bic: 'BNPA' } },
      [{ path: 'paymentDetails.bic', key: 'payment:errors.invalid-bic' }],
    ],
    [
      { paymentMethod: 'bank_transfer', paymentDetails: { ...bank, bankName: '', accountHolder: '' } },
      [
        { path: 'paymentDetails.bankName', key: 'payment:errors.bank-details-required' },
        { path: 'paymentDetails.accountHolder', key: 'payment:errors.bank-details-required' },
      ],
    ],
  ])('step 3: %j', (change, expected) => {
    expect(errors(paymentStepSchema, { ...paymentStep, ...change })).toEqual(expected);
  });

  it('reports the terms and the payment details together', () => {
    expect(
      errors(paymentStepSchema, {
        paymentMethod: 'paypal',
        paymentDetails: { paypalEmail: 'x' },
        termsAccepted: false,
      }),
    ).toEqual([
      { path: 'termsAccepted', key: 'auth:errors.termsRequired' },
      { path: 'paymentDetails.paypalEmail', key: 'payment:errors.invalid-paypal-email' },
    ]);
  });
});

describe('the payment method’s rule as field errors', () => {
  it('names each field, or the choice, or the details as a whole', () => {
    const refused = (method: unknown, details: unknown) => {
      const result = validatePaymentMethod(method, details);
      if (result.ok) throw new Error('accepted');
      const found = paymentMethodFieldErrors(result);
      for (const error of found) seen.add(error.key);
      return found;
    };
    expect(refused('bank_transfer', { ...bank, bankIban: 'FR76' })).toEqual([
      { path: 'paymentDetails.bankIban', key: 'payment:errors.invalid-iban' },
    ]);
    expect(refused('cash', {})).toEqual([{ path: 'paymentMethod', key: 'payment:errors.missing-payment-method' }]);
    expect(refused('paypal', null)).toEqual([
      { path: 'paymentDetails', key: 'payment:errors.missing-payment-details' },
    ]);
    expect(refused('bank_transfer', { ...bank, bankName: 'B'.repeat(201) })).toEqual([
      { path: 'paymentDetails.bankName', key: 'payment:errors.field-too-long' },
    ]);
    expect(refused('paypal', { paypalEmail: 'a\u0000@b.co' })).toEqual([
      { path: 'paymentDetails.paypalEmail', key: 'payment:errors.invalid-characters' },
    ]);
  });
});

describe('sign-in, password reset, password change, account deletion', () => {
  it('sign-in needs both fields', () => {
    expect(errors(signInSchema, { email: 'ana@example.com', password: ' ' })).toEqual([]);
    expect(errors(signInSchema, { email: ' ', password: '' })).toEqual([
      { path: 'email', key: 'auth:errors.loginRequired' },
      { path: 'password', key: 'auth:errors.loginRequired' },
    ]);
  });

  it('the reset link needs a usable address', () => {
    expect(errors(passwordResetRequestSchema, { email: ' ana@example.com ' })).toEqual([]);
    expect(errors(passwordResetRequestSchema, { email: '' })).toEqual([
      { path: 'email', key: 'auth:errors.emailRequired' },
    ]);
    expect(errors(passwordResetRequestSchema, { email: 'ana@' })).toEqual([
      { path: 'email', key: 'auth:errors.emailInvalid' },
    ]);
  });

  it('a new password is confirmed and long enough', () => {
    expect(errors(newPasswordSchema, { password: 'long-enough', confirmPassword: 'long-enough' })).toEqual([]);
    expect(errors(newPasswordSchema, { password: 'long-enough', confirmPassword: 'other-one' })).toEqual([
      { path: 'confirmPassword', key: 'auth:errors.passwordMismatch' },
    ]);
  });

  it('the password change, with the dashboard’s keys', () => {
    const valid = { currentPassword: 'old', newPassword: 'long-enough', confirmPassword: 'long-enough' };
    expect(errors(changePasswordSchema, valid)).toEqual([]);
    const key = (name: string) => `dashboard:settings.password.errors.${name}`;
    expect(errors(changePasswordSchema, { ...valid, currentPassword: '' })).toEqual([
      { path: 'currentPassword', key: key('required') },
    ]);
    expect(errors(changePasswordSchema, { ...valid, newPassword: 'short', confirmPassword: 'short' })).toEqual([
      { path: 'newPassword', key: key('tooShort') },
    ]);
    expect(
      errors(changePasswordSchema, { ...valid, newPassword: 'x'.repeat(129), confirmPassword: 'x'.repeat(129) }),
    ).toEqual([{ path: 'newPassword', key: key('tooLong') }]);
    expect(errors(changePasswordSchema, { ...valid, confirmPassword: 'long-enougH' })).toEqual([
      { path: 'confirmPassword', key: key('mismatch') },
    ]);
  });

  it('account deletion needs the password', () => {
    expect(errors(deleteAccountRequestSchema, { password: 'x' })).toEqual([]);
    expect(errors(deleteAccountRequestSchema, { password: '' })).toEqual([
      { path: 'password', key: 'dashboard:settings.delete.errors.wrongPassword' },
    ]);
  });
});

describe('support contact form', () => {
  const valid = { name: 'Ana', email: 'ana@example.com', subject: 'technical', message: 'The scan never ends.' };

  it('accepts a valid form', () => {
    expect(errors(contactRequestSchema, valid)).toEqual([]);
  });

  it.each([
    ['name', { name: '' }, 'support:form.errors.nameRequired'],
    ['name', { name: 'N'.repeat(101) }, 'support:form.errors.nameTooLong'],
    ['email', { email: '' }, 'support:form.errors.emailRequired'],
    ['email', { email: 'nope' }, 'support:form.errors.emailInvalid'],
    ['subject', { subject: 'billing' }, 'support:form.errors.subjectRequired'],
    ['message', { message: '' }, 'support:form.errors.messageRequired'],
    ['message', { message: 'short' }, 'support:form.errors.messageTooShort'],
    ['message', { message: 'm'.repeat(5001) }, 'support:form.errors.messageTooLong'],
    ['message', { message: 'ten chars \ud800' }, 'support:form.errors.invalidCharacters'],
  ])('%s %j → %s', (field, change, key) => {
    expect(errors(contactRequestSchema, { ...valid, ...change })).toEqual([{ path: field, key }]);
  });
});

describe('every key a form answers', () => {
  it('has a text in both languages', () => {
    expect(seen.size).toBeGreaterThan(25);
    for (const key of seen)
      for (const lang of LANGUAGES) expect(typeof translation(lang, key), `${lang} ${key}`).toBe('string');
  });
});
