import { PROFILE_LIMITS } from './constants.ts';
import { isStorableText } from '../callable/storable-text.ts';
import { hasValidIbanChecksum, hasValidIbanLength, isValidBic, normaliseBankId } from './bank.ts';
import type { FieldError } from '../callable/field-errors.ts';

// Payment methods (docs/product/calls-and-data.md#data-model, docs/product/rules-and-constants.md#validation). One validation for the signup
// form, the dashboard form and the server functions; failures carry the callable detail code the
// client translates (docs/product/messages.md#payment-update-messages payment catalogue plus the finer codes below).

export const PAYMENT_METHOD_TYPES = ['paypal', 'bank_transfer'] as const;
export type PaymentMethodType = (typeof PAYMENT_METHOD_TYPES)[number];
/** Signup also lets the affiliate choose later (docs/product/routes-and-screens.md#affiliate-signup, default). */
export const SIGNUP_PAYMENT_CHOICES = ['later', ...PAYMENT_METHOD_TYPES] as const;
export type SignupPaymentChoice = (typeof SIGNUP_PAYMENT_CHOICES)[number];

export const BANK_FIELDS = ['bankName', 'bankIban', 'bic', 'accountHolder'] as const;
export type BankField = (typeof BANK_FIELDS)[number];

export type PaymentDetailsInput = Partial<Record<'paypalEmail' | BankField | 'iban', unknown>>;

export type ValidPaymentMethod =
  | { type: 'paypal'; paypalEmail: string }
  | { type: 'bank_transfer'; bankName: string; bankIban: string; bic: string; accountHolder: string };

/** Detail codes of a refused payment method (translated by the client; `details.code` on the wire). */
export type PaymentMethodErrorCode =
  | 'missing-payment-method'
  | 'missing-payment-details'
  | 'paypal-email-required'
  | 'invalid-paypal-email'
  | 'bank-details-required'
  | 'invalid-iban'
  | 'invalid-iban-checksum'
  | 'invalid-bic'
  | 'field-too-long'
  /** A NUL character or a lone surrogate (storable-text.ts): text the database cannot store as sent. */
  | 'invalid-characters';

export type PaymentMethodValidation =
  { ok: true; value: ValidPaymentMethod } | { ok: false; code: PaymentMethodErrorCode; fields?: string[] };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/**
 * Validates a payment method and its details. `bankIban` is read, or `iban` (docs/product/calls-and-data.md#data-model: "field iban
 * is also read"). Returns the trimmed value with IBAN and BIC normalised (no spaces, upper case).
 */
export function validatePaymentMethod(method: unknown, details: unknown): PaymentMethodValidation {
  if (method !== 'paypal' && method !== 'bank_transfer') return { ok: false, code: 'missing-payment-method' };
  if (typeof details !== 'object' || details === null || Array.isArray(details))
    return { ok: false, code: 'missing-payment-details' };
  const input = details as PaymentDetailsInput;
  if (method === 'paypal') {
    const paypalEmail = text(input.paypalEmail);
    if (!paypalEmail) return { ok: false, code: 'paypal-email-required', fields: ['paypalEmail'] };
    if (!isStorableText(paypalEmail)) return { ok: false, code: 'invalid-characters', fields: ['paypalEmail'] };
    if (paypalEmail.length > PROFILE_LIMITS.paypalEmail || !EMAIL.test(paypalEmail)) {
      return { ok: false, code: 'invalid-paypal-email', fields: ['paypalEmail'] };
    }
    return { ok: true, value: { type: 'paypal', paypalEmail } };
  }
  const values = {
    bankName: text(input.bankName),
    bankIban: normaliseBankId(text(input.bankIban) || text(input.iban)),
    bic: normaliseBankId(text(input.bic)),
    accountHolder: text(input.accountHolder),
  };
  const missing = BANK_FIELDS.filter((field) => values[field] === '');
  if (missing.length > 0) return { ok: false, code: 'bank-details-required', fields: missing };
  const unstorable = BANK_FIELDS.filter((field) => !isStorableText(values[field]));
  if (unstorable.length > 0) return { ok: false, code: 'invalid-characters', fields: unstorable };
  if (values.bankName.length > PROFILE_LIMITS.bankName)
    return { ok: false, code: 'field-too-long', fields: ['bankName'] };
  if (values.accountHolder.length > PROFILE_LIMITS.accountHolder)
    return { ok: false, code: 'field-too-long', fields: ['accountHolder'] };
  if (!hasValidIbanLength(values.bankIban)) return { ok: false, code: 'invalid-iban', fields: ['bankIban'] };
  if (!hasValidIbanChecksum(values.bankIban)) return { ok: false, code: 'invalid-iban-checksum', fields: ['bankIban'] };
  if (!isValidBic(values.bic)) return { ok: false, code: 'invalid-bic', fields: ['bic'] };
  return { ok: true, value: { type: 'bank_transfer', ...values } };
}

/**
 * A refused payment method as field errors (ADR 009): each field it names, under `paymentDetails`
 * as the request sends them, with the code's message of the `payment` namespace. A refusal of the
 * choice itself is about `paymentMethod`, of the details as a whole about `paymentDetails`.
 */
export function paymentMethodFieldErrors(
  refusal: { code: PaymentMethodErrorCode; fields?: readonly string[] | undefined },
  detailsPath = 'paymentDetails',
): FieldError[] {
  const key = `payment:errors.${refusal.code}`;
  if (refusal.fields && refusal.fields.length > 0)
    return refusal.fields.map((field) => ({ path: `${detailsPath}.${field}`, key }));
  return [{ path: refusal.code === 'missing-payment-method' ? 'paymentMethod' : detailsPath, key }];
}

/** A stored payment method as the dashboard sees it: the IBAN masked except its last 4 characters. */
export type PaymentMethodSummary =
  | { type: null; configured: false }
  | { type: 'paypal'; configured: true; paypalEmail: string; updatedAt: string }
  | {
      type: 'bank_transfer';
      configured: true;
      bankName: string;
      accountHolder: string;
      ibanMasked: string;
      bic: string;
      updatedAt: string;
    };
