import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import {
  UNKNOWN_FIELD_ERROR_KEY,
  checkForm,
  fieldErrorsFromIssues,
  fieldErrorsOfDetails,
  formNamespaceOf,
  formSchema,
  isFieldErrorList,
  messageKey,
} from './field-errors.ts';

describe('messageKey', () => {
  it('puts a key in the schema’s namespace unless it names its own', () => {
    expect(messageKey('errors.emailInvalid', 'auth')).toBe('auth:errors.emailInvalid');
    expect(messageKey('form.errors.nameRequired', 'support')).toBe('support:form.errors.nameRequired');
    expect(messageKey('payment:errors.invalid-iban', 'auth')).toBe('payment:errors.invalid-iban');
  });

  it('words a message that is no key (zod’s own, in English) with the protocol’s message', () => {
    expect(messageKey('Invalid input: expected string, received number', 'auth')).toBe(UNKNOWN_FIELD_ERROR_KEY);
    expect(messageKey('Required', 'auth')).toBe(UNKNOWN_FIELD_ERROR_KEY);
    expect(messageKey('', 'auth')).toBe(UNKNOWN_FIELD_ERROR_KEY);
  });
});

describe('fieldErrorsFromIssues', () => {
  it('joins paths with dots and keeps the first issue of each field, in order', () => {
    expect(
      fieldErrorsFromIssues(
        [
          { path: ['password'], message: 'errors.allFieldsRequired' },
          { path: ['password'], message: 'errors.passwordTooShort' },
          { path: ['paymentDetails', 'bankIban'], message: 'payment:errors.invalid-iban' },
          { path: ['items', 0, 'name'], message: 'errors.tooLong' },
          { path: [], message: 'errors.generic' },
        ],
        'auth',
      ),
    ).toEqual([
      { path: 'password', key: 'auth:errors.allFieldsRequired' },
      { path: 'paymentDetails.bankIban', key: 'payment:errors.invalid-iban' },
      { path: 'items.0.name', key: 'auth:errors.tooLong' },
      { path: '', key: 'auth:errors.generic' },
    ]);
  });
});

describe('formSchema and checkForm', () => {
  const schema = formSchema(
    'demo',
    z.object({ name: z.string('errors.nameRequired').check(z.minLength(1, 'errors.nameRequired')) }),
  );

  it('remembers the namespace of a form’s schema, and only of a form’s', () => {
    expect(formNamespaceOf(schema)).toBe('demo');
    expect(formNamespaceOf(z.object({}))).toBeUndefined();
  });

  it('answers the parsed value, or the field errors', () => {
    expect(checkForm(schema, { name: 'Ana' })).toEqual({ success: true, data: { name: 'Ana' }, errors: [] });
    expect(checkForm(schema, { name: '' })).toEqual({
      success: false,
      errors: [{ path: 'name', key: 'demo:errors.nameRequired' }],
    });
    expect(checkForm(schema, null)).toEqual({ success: false, errors: [{ path: '', key: UNKNOWN_FIELD_ERROR_KEY }] });
  });
});

describe('reading field errors from a refusal', () => {
  it('reads details.fields when it is a list of field errors, and nothing else', () => {
    const fields = [{ path: 'email', key: 'auth:errors.emailTaken' }];
    expect(fieldErrorsOfDetails({ code: 'email-taken', fields })).toEqual(fields);
    expect(fieldErrorsOfDetails({ code: 'invalid-bic', fields: ['bic'] })).toEqual([]);
    expect(fieldErrorsOfDetails('a string')).toEqual([]);
    expect(fieldErrorsOfDetails(undefined)).toEqual([]);
    expect(isFieldErrorList([{ path: 'a', key: 1 }])).toBe(false);
  });
});
