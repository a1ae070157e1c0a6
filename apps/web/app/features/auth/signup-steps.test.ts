import { describe, expect, it } from 'vitest';
import { CallableClientError } from '../../lib/callable';
import {
  EMPTY_SIGNUP,
  type SignupValues,
  afterPaymentMethodChange,
  serverProblem,
  signupRequest,
  stepMessages,
  stepProblem,
} from './signup-steps';

const VALID_IBAN = 'FR7630006000011234567890189';

function values(overrides: Partial<SignupValues> = {}): SignupValues {
  return {
    ...EMPTY_SIGNUP,
    email: 'ana@example.com',
    password: 'long-enough',
    confirmPassword: 'long-enough',
    firstName: 'Ana',
    lastName: 'Martin',
    termsAccepted: true,
    ...overrides,
  };
}

const bank = (overrides: Partial<SignupValues['payment']> = {}): SignupValues['payment'] => ({
  ...EMPTY_SIGNUP.payment,
  method: 'bank_transfer',
  accountHolder: 'Ana Martin',
  bankName: 'BNP Paribas',
  bankIban: VALID_IBAN,
  bic: 'BNPAFRPP',
  ...overrides,
});

/** A field error of the `auth` namespace. */
const auth = (path: string, key: string) => ({ path, key: `auth:errors.${key}` });
/** A field error of the payment method (its details are under `paymentDetails`). */
const payment = (field: string, code: string) => ({ path: `paymentDetails.${field}`, key: `payment:errors.${code}` });

describe('step 1: account', () => {
  it('asks for all three fields and marks the empty ones', () => {
    expect(stepProblem(1, values({ email: '  ', confirmPassword: '' }))).toEqual({
      step: 1,
      errors: [auth('email', 'allFieldsRequired'), auth('confirmPassword', 'allFieldsRequired')],
    });
  });

  it('refuses different passwords and short ones, both at once, the mismatch first', () => {
    expect(stepProblem(1, values({ confirmPassword: 'long-enougH' }))?.errors).toEqual([
      auth('confirmPassword', 'passwordMismatch'),
    ]);
    expect(stepProblem(1, values({ password: 'short', confirmPassword: 'other' }))?.errors).toEqual([
      auth('confirmPassword', 'passwordMismatch'),
      auth('password', 'passwordTooShort'),
    ]);
    expect(stepProblem(1, values({ password: 'short', confirmPassword: 'short' }))?.errors).toEqual([
      auth('password', 'passwordTooShort'),
    ]);
  });

  it('refuses an address that is not one', () => {
    expect(stepProblem(1, values({ email: 'ana@' }))?.errors).toEqual([auth('email', 'emailInvalid')]);
  });

  it('reports every error of the step at once: missing fields, then the address, then the password', () => {
    const problem = stepProblem(1, values({ email: 'ana@', password: 'short', confirmPassword: '' }));
    expect(problem?.errors).toEqual([
      auth('confirmPassword', 'allFieldsRequired'),
      auth('password', 'passwordTooShort'),
      auth('email', 'emailInvalid'),
    ]);
    // One message per kind of error, each with the fields it names.
    expect(stepMessages(problem?.errors ?? [])).toEqual([
      [auth('confirmPassword', 'allFieldsRequired')],
      [auth('password', 'passwordTooShort')],
      [auth('email', 'emailInvalid')],
    ]);
  });

  it('lets a complete step through', () => {
    expect(stepProblem(1, values())).toBeNull();
  });
});

describe('step 2: profile', () => {
  it('requires both names with one message, marking each missing one', () => {
    expect(stepProblem(2, values({ firstName: ' ', lastName: '' }))).toEqual({
      step: 2,
      errors: [auth('firstName', 'namesRequired'), auth('lastName', 'namesRequired')],
    });
  });

  it('accepts a bare domain as website and refuses what is not an address', () => {
    expect(stepProblem(2, values({ website: 'example.com' }))).toBeNull();
    expect(stepProblem(2, values({ website: 'not a site' }))?.errors).toEqual([auth('website', 'websiteInvalid')]);
  });
});

describe('the last step checks everything', () => {
  it('sends the visitor back to the earliest step with a problem', () => {
    expect(stepProblem(3, values({ lastName: '' }))).toEqual({ step: 2, errors: [auth('lastName', 'namesRequired')] });
    expect(stepProblem(3, values({ password: 'x', confirmPassword: 'x' }))).toMatchObject({ step: 1 });
  });

  it('accepts "set up later" without details', () => {
    expect(stepProblem(3, values())).toBeNull();
  });

  it('needs the PayPal e-mail', () => {
    expect(stepProblem(3, values({ payment: { ...EMPTY_SIGNUP.payment, method: 'paypal' } }))).toEqual({
      step: 3,
      errors: [payment('paypalEmail', 'paypal-email-required')],
    });
  });

  it('needs the four bank fields, an IBAN of the right length and checksum, and a BIC', () => {
    expect(stepProblem(3, values({ payment: bank({ bankName: '', bic: '' }) }))?.errors).toEqual([
      payment('bankName', 'bank-details-required'),
      payment('bic', 'bank-details-required'),
    ]);
    expect(stepProblem(3, values({ payment: bank({ bankIban: 'FR76300' }) }))?.errors).toEqual([
      payment('bankIban', 'invalid-iban'),
    ]);
    expect(stepProblem(3, values({ payment: bank({ bankIban: 'FR7630006000011234567890188' }) }))?.errors).toEqual([
      payment('bankIban', 'invalid-iban-checksum'),
    ]);
    expect(stepProblem(3, values({ payment: bank({ bic: 'BNPA' }) }))?.errors).toEqual([payment('bic', 'invalid-bic')]);
    expect(stepProblem(3, values({ payment: bank() }))).toBeNull();
  });

  it('needs the terms accepted, reported with the payment method’s errors, after them', () => {
    expect(stepProblem(3, values({ termsAccepted: false }))?.errors).toEqual([auth('termsAccepted', 'termsRequired')]);
    const both = stepProblem(3, values({ termsAccepted: false, payment: bank({ bankName: '', bic: '' }) }));
    expect(both?.errors).toEqual([
      payment('bankName', 'bank-details-required'),
      payment('bic', 'bank-details-required'),
      auth('termsAccepted', 'termsRequired'),
    ]);
    expect(stepMessages(both?.errors ?? [])).toEqual([
      [payment('bankName', 'bank-details-required'), payment('bic', 'bank-details-required')],
      [auth('termsAccepted', 'termsRequired')],
    ]);
  });

  it('drops the errors of the payment method once another is chosen, and keeps the others', () => {
    const both = stepProblem(3, values({ termsAccepted: false, payment: bank({ bic: '' }) }))!;
    expect(afterPaymentMethodChange(both)).toEqual({ step: 3, errors: [auth('termsAccepted', 'termsRequired')] });
    const details = stepProblem(3, values({ payment: bank({ bic: '' }) }))!;
    expect(afterPaymentMethodChange(details)).toBeNull();
    const terms = stepProblem(3, values({ termsAccepted: false }))!;
    expect(afterPaymentMethodChange(terms)).toBe(terms);
  });
});

describe('the request', () => {
  it('trims, turns empty optional fields into null and sends no details for "later"', () => {
    expect(signupRequest(values({ email: ' ana@example.com ', phone: '  ', website: 'example.com' }), 'en')).toEqual({
      email: 'ana@example.com',
      password: 'long-enough',
      firstName: 'Ana',
      lastName: 'Martin',
      phone: null,
      companyName: null,
      website: 'https://example.com',
      paymentMethod: 'later',
      paymentDetails: null,
      termsAccepted: true,
      language: 'en',
    });
  });

  it('sends the chosen method’s details only', () => {
    const request = signupRequest(values({ payment: { ...bank(), paypalEmail: 'left@over.com' } }), 'fr');
    expect(request.paymentDetails).toEqual({
      accountHolder: 'Ana Martin',
      bankName: 'BNP Paribas',
      bankIban: VALID_IBAN,
      bic: 'BNPAFRPP',
    });
    expect(request.language).toBe('fr');
  });
});

describe('refusals from the server', () => {
  const invalid = (...fields: { path: string; key: string }[]) =>
    new CallableClientError('invalid-argument', 'Invalid information provided.', { code: 'invalid-argument', fields });

  it('sends a taken e-mail back to step 1 with the field marked', () => {
    const error = new CallableClientError('email-taken', 'An account already exists.', {
      code: 'email-taken',
      fields: [auth('email', 'emailTaken')],
    });
    expect(serverProblem(error)).toEqual({ step: 1, errors: [auth('email', 'emailTaken')] });
  });

  it('maps the schema’s field errors to their step and field, the earliest step first', () => {
    expect(serverProblem(invalid(auth('password', 'passwordTooShort')))).toEqual({
      step: 1,
      errors: [auth('password', 'passwordTooShort')],
    });
    expect(serverProblem(invalid(auth('website', 'websiteInvalid')))).toEqual({
      step: 2,
      errors: [auth('website', 'websiteInvalid')],
    });
    expect(serverProblem(invalid(auth('termsAccepted', 'termsRequired')))).toEqual({
      step: 3,
      errors: [auth('termsAccepted', 'termsRequired')],
    });
    expect(serverProblem(invalid(auth('termsAccepted', 'termsRequired'), auth('lastName', 'namesRequired')))).toEqual({
      step: 2,
      errors: [auth('lastName', 'namesRequired')],
    });
  });

  it('maps a payment refusal with its fields', () => {
    const error = new CallableClientError('invalid-bic', 'Invalid payment details.', {
      code: 'invalid-bic',
      fields: [payment('bic', 'invalid-bic')],
    });
    expect(serverProblem(error)).toEqual({ step: 3, errors: [payment('bic', 'invalid-bic')] });
  });

  it('keeps anything else as a failure on the last step', () => {
    const internal = new CallableClientError('internal', 'internal');
    expect(serverProblem(internal)).toEqual({ step: 3, errors: [], failure: internal });
    expect(serverProblem(new TypeError('boom'))).toMatchObject({ step: 3, errors: [] });
  });

  it('words the signup limit as too many attempts', () => {
    const error = new CallableClientError('too-many-requests', 'Too many signups.', { code: 'too-many-requests' });
    expect(serverProblem(error)).toEqual({ step: 3, errors: [{ path: '', key: 'auth:errors.tooManyRequests' }] });
  });
});
