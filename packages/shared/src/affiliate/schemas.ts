import * as z from 'zod/mini';
import { PASSWORD_MAX_LENGTH, PROFILE_LIMITS, REFERRAL_DESCRIPTION_MAX } from './constants.ts';
import { PASSWORD_MIN_LENGTH } from './programme.ts';
import { LANGUAGES } from '../site/constants.ts';
import { SIGNUP_PAYMENT_CHOICES, validatePaymentMethod } from './payment-method.ts';
import { isStorableText, storableText } from '../callable/storable-text.ts';

// Affiliate accounts (spec §2 signup/login, §3, §5). Written with `zod/mini`: the signup and login
// pages ship these schemas to the browser. Messages are i18n keys of the `auth` namespace. Every
// text passes the storable-text rule (storable-text.ts).

const INVALID_CHARACTERS = 'errors.invalidCharacters';

/** Trimmed text, required (message `requiredKey`), at most `max` characters. */
const requiredText = (requiredKey: string, max: number) =>
  z
    .string(requiredKey)
    .check(
      z.trim(),
      z.minLength(1, { error: requiredKey, abort: true }),
      z.maxLength(max, { error: 'errors.tooLong', abort: true }),
      storableText(INVALID_CHARACTERS),
    );

/** Optional text: empty becomes null (spec §3: "phone (null if empty)"). */
const optionalText = (max: number) =>
  z
    .pipe(
      z.optional(z.nullable(z.string('errors.tooLong'))),
      z.transform((value) => {
        const trimmed = value?.trim() ?? '';
        return trimmed === '' ? null : trimmed;
      }),
    )
    .check(
      z.refine((value) => value === null || value.length <= max, { error: 'errors.tooLong', abort: true }),
      z.refine((value) => value === null || isStorableText(value), INVALID_CHARACTERS),
    );

const email = z.pipe(requiredText('errors.allFieldsRequired', PROFILE_LIMITS.email), z.email('errors.emailInvalid'));
const password = z
  .string('errors.allFieldsRequired')
  .check(
    z.minLength(1, { error: 'errors.allFieldsRequired', abort: true }),
    z.minLength(PASSWORD_MIN_LENGTH, { error: 'errors.passwordTooShort', abort: true }),
    z.maxLength(PASSWORD_MAX_LENGTH, 'errors.passwordTooLong'),
  );

/** Step 1 of signup: e-mail, password, confirmation (spec §5 allFieldsRequired, passwordMismatch, passwordTooShort). */
export function validateSignupCredentials(values: {
  email: string;
  password: string;
  confirmPassword: string;
}): string | null {
  if (!values.email.trim() || !values.password || !values.confirmPassword) return 'errors.allFieldsRequired';
  if (values.password !== values.confirmPassword) return 'errors.passwordMismatch';
  if (values.password.length < PASSWORD_MIN_LENGTH) return 'errors.passwordTooShort';
  if (values.password.length > PASSWORD_MAX_LENGTH) return 'errors.passwordTooLong';
  const parsed = email.safeParse(values.email);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'errors.emailInvalid');
}

/** A website the affiliate promotes from: http(s) only; "example.com" is read as https://example.com. */
export function normaliseWebsite(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '' || /^https?:\/\//i.test(trimmed)) return trimmed;
  return `https://${trimmed}`;
}

const website = z.pipe(
  optionalText(PROFILE_LIMITS.website),
  z.nullable(z.url({ protocol: /^https?$/, hostname: z.regexes.domain, error: 'errors.websiteInvalid' })),
);

/**
 * The signup payload (spec §3 "Affiliate signup payload") with the password and the terms checkbox:
 * account and affiliate profile are created by one server operation (BRIEF §6).
 */
export const createAffiliateRequestSchema = z
  .object({
    email,
    password,
    firstName: requiredText('errors.namesRequired', PROFILE_LIMITS.name),
    lastName: requiredText('errors.namesRequired', PROFILE_LIMITS.name),
    phone: optionalText(PROFILE_LIMITS.phone),
    companyName: optionalText(PROFILE_LIMITS.companyName),
    website,
    paymentMethod: z.enum(SIGNUP_PAYMENT_CHOICES, 'errors.paymentMethodRequired'),
    /** Free-form (the method decides the fields): its keys are storable text; `validatePaymentMethod` checks the values. */
    paymentDetails: z.optional(z.nullable(z.record(z.string().check(storableText()), z.unknown()))),
    termsAccepted: z.literal(true, 'errors.termsRequired'),
    /** The page's language: e-mails to the affiliate use it. */
    language: z.optional(z.enum(LANGUAGES)),
  })
  .check(
    z.superRefine((value, ctx) => {
      if (value.paymentMethod === 'later') return;
      const result = validatePaymentMethod(value.paymentMethod, value.paymentDetails ?? {});
      if (!result.ok) {
        ctx.issues.push({
          code: 'custom',
          input: value.paymentDetails,
          path: ['paymentDetails'],
          message: `payment.${result.code}`,
        });
      }
    }),
  );

export type CreateAffiliateRequest = z.input<typeof createAffiliateRequestSchema>;
export type CreateAffiliateInput = z.output<typeof createAffiliateRequestSchema>;

export interface CreateAffiliateResponse {
  affiliateId: string;
  status: AffiliateStatus;
}

export const AFFILIATE_STATUSES = ['pending', 'active', 'refused'] as const;
export type AffiliateStatus = (typeof AFFILIATE_STATUSES)[number];

/** Login (spec §5: 'Email and password are required.'). */
export function validateLogin(values: { email: string; password: string }): string | null {
  return values.email.trim() && values.password ? null : 'errors.loginRequired';
}

export const generateReferralCodeRequestSchema = z.optional(
  z.nullable(
    z.object({
      description: z.optional(
        z.nullable(z.string().check(z.trim(), z.maxLength(REFERRAL_DESCRIPTION_MAX), storableText())),
      ),
    }),
  ),
);
export type GenerateReferralCodeRequest = z.input<typeof generateReferralCodeRequestSchema>;

export const notificationPreferencesSchema = z.object({
  conversions: z.boolean(),
  payments: z.boolean(),
  news: z.boolean(),
});
export type NotificationPreferences = z.output<typeof notificationPreferencesSchema>;

export const deleteAccountRequestSchema = z.object({
  /** The account's password, as confirmation. */
  password: z.string().check(z.minLength(1), z.maxLength(PASSWORD_MAX_LENGTH)),
});

/**
 * `updateAffiliatePaymentMethod` (spec §5 "Payment update", §7). Both fields are read as they come:
 * `validatePaymentMethod` answers each mistake with its own detail code (missing-payment-method,
 * missing-payment-details, invalid-iban, invalid-iban-checksum, invalid-bic …), as the form does.
 */
export const updatePaymentMethodRequestSchema = z.nullable(
  z.optional(
    z.object({
      paymentMethod: z.optional(z.unknown()),
      paymentDetails: z.optional(z.unknown()),
    }),
  ),
);
