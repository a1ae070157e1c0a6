import { describe, expect, it } from 'vitest';
import { CallableClientError } from '../../lib/callable';
import { EMPTY_SIGNUP, type SignupValues, serverProblem, signupRequest, stepProblem } from './signup-steps';

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

describe('step 1: account', () => {
  it('asks for all three fields and marks the empty ones', () => {
    expect(stepProblem(1, values({ email: '  ', confirmPassword: '' }))).toEqual({
      kind: 'auth',
      key: 'errors.allFieldsRequired',
      step: 1,
      fields: ['email', 'confirmPassword'],
    });
  });

  it('refuses different passwords, then short ones', () => {
    expect(stepProblem(1, values({ confirmPassword: 'long-enougH' }))).toMatchObject({
      key: 'errors.passwordMismatch',
      fields: ['confirmPassword'],
    });
    expect(stepProblem(1, values({ password: 'short', confirmPassword: 'short' }))).toMatchObject({
      key: 'errors.passwordTooShort',
      fields: ['password'],
    });
  });

  it('refuses an address that is not one', () => {
    expect(stepProblem(1, values({ email: 'ana@' }))).toMatchObject({ key: 'errors.emailInvalid', fields: ['email'] });
  });

  it('lets a complete step through', () => {
    expect(stepProblem(1, values())).toBeNull();
  });
});

describe('step 2: profile', () => {
  it('requires both names with one message, marking each missing one', () => {
    expect(stepProblem(2, values({ firstName: ' ', lastName: '' }))).toEqual({
      kind: 'auth',
      key: 'errors.namesRequired',
      step: 2,
      fields: ['firstName', 'lastName'],
    });
  });

  it('accepts a bare domain as website and refuses what is not an address', () => {
    expect(stepProblem(2, values({ website: 'example.com' }))).toBeNull();
    expect(stepProblem(2, values({ website: 'not a site' }))).toMatchObject({
      key: 'errors.websiteInvalid',
      fields: ['website'],
    });
  });
});

describe('the last step checks everything', () => {
  it('sends the visitor back to the earliest step with a problem', () => {
    expect(stepProblem(3, values({ lastName: '' }))).toMatchObject({ step: 2, key: 'errors.namesRequired' });
    expect(stepProblem(3, values({ password: 'x', confirmPassword: 'x' }))).toMatchObject({ step: 1 });
  });

  it('accepts "set up later" without details', () => {
    expect(stepProblem(3, values())).toBeNull();
  });

  it('needs the PayPal e-mail', () => {
    expect(stepProblem(3, values({ payment: { ...EMPTY_SIGNUP.payment, method: 'paypal' } }))).toEqual({
      kind: 'payment',
      code: 'paypal-email-required',
      step: 3,
      fields: ['paypalEmail'],
    });
  });

  it('needs the four bank fields, an IBAN of the right length and checksum, and a BIC', () => {
    expect(stepProblem(3, values({ payment: bank({ bankName: '', bic: '' }) }))).toMatchObject({
      code: 'bank-details-required',
      fields: ['bankName', 'bic'],
    });
    expect(stepProblem(3, values({ payment: bank({ bankIban: 'FR76300' }) }))).toMatchObject({
      code: 'invalid-iban',
      fields: ['bankIban'],
    });
    expect(stepProblem(3, values({ payment: bank({ bankIban: 'FR7630006000011234567890188' }) }))).toMatchObject({
      code: 'invalid-iban-checksum',
    });
    expect(stepProblem(3, values({ payment: bank({ bic: 'BNPA' }) }))).toMatchObject({
      code: 'invalid-bic',
      fields: ['bic'],
    });
    expect(stepProblem(3, values({ payment: bank() }))).toBeNull();
  });

  it('needs the terms accepted, after the payment method', () => {
    expect(stepProblem(3, values({ termsAccepted: false }))).toMatchObject({
      key: 'errors.termsRequired',
      fields: ['termsAccepted'],
    });
    expect(stepProblem(3, values({ termsAccepted: false, payment: bank({ bic: '' }) }))).toMatchObject({
      kind: 'payment',
    });
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
  const paymentCodes = new Set(['invalid-iban', 'invalid-bic', 'paypal-email-required']);
  const isPaymentCode = (code: string) => paymentCodes.has(code);
  const invalid = (path: string, message: string) =>
    new CallableClientError('invalid-argument', 'Invalid information provided.', {
      code: 'invalid-argument',
      issues: [{ path, message }],
    });

  it('sends a taken e-mail back to step 1 with the field marked', () => {
    const error = new CallableClientError('email-taken', 'An account already exists.', { code: 'email-taken' });
    expect(serverProblem(error, isPaymentCode)).toEqual({
      kind: 'auth',
      key: 'errors.emailTaken',
      step: 1,
      fields: ['email'],
    });
  });

  it('maps the schema’s keys to their step and field', () => {
    expect(serverProblem(invalid('password', 'errors.passwordTooShort'), isPaymentCode)).toMatchObject({
      step: 1,
      fields: ['password'],
    });
    expect(serverProblem(invalid('website', 'errors.websiteInvalid'), isPaymentCode)).toMatchObject({
      step: 2,
      key: 'errors.websiteInvalid',
    });
    expect(serverProblem(invalid('termsAccepted', 'errors.termsRequired'), isPaymentCode)).toMatchObject({
      step: 3,
      fields: ['termsAccepted'],
    });
    expect(serverProblem(invalid('paymentDetails', 'payment.invalid-iban'), isPaymentCode)).toEqual({
      kind: 'payment',
      code: 'invalid-iban',
      step: 3,
      fields: [],
    });
  });

  it('maps a payment detail code with its fields', () => {
    const error = new CallableClientError('invalid-bic', 'Invalid payment details.', {
      code: 'invalid-bic',
      fields: ['bic'],
    });
    expect(serverProblem(error, isPaymentCode)).toEqual({
      kind: 'payment',
      code: 'invalid-bic',
      step: 3,
      fields: ['bic'],
    });
  });

  it('keeps anything else as a failure on the last step', () => {
    const internal = new CallableClientError('internal', 'internal');
    expect(serverProblem(internal, isPaymentCode)).toEqual({ kind: 'failure', error: internal, step: 3, fields: [] });
    expect(serverProblem(invalid('email', 'Unexpected English text'), isPaymentCode)).toMatchObject({
      kind: 'failure',
    });
    expect(serverProblem(new TypeError('boom'), isPaymentCode)).toMatchObject({ kind: 'failure' });
  });

  it('words the signup limit as too many attempts', () => {
    const error = new CallableClientError('too-many-requests', 'Too many signups.', { code: 'too-many-requests' });
    expect(serverProblem(error, isPaymentCode)).toMatchObject({ kind: 'auth', key: 'errors.tooManyRequests' });
  });
});
