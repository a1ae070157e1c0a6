import * as z from 'zod/mini';
import { PASSWORD_MAX_LENGTH, PROFILE_LIMITS, REFERRAL_DESCRIPTION_MAX } from './constants.ts';
import { PASSWORD_MIN_LENGTH } from './programme.ts';
import { LANGUAGES } from '../site/constants.ts';
import { SIGNUP_PAYMENT_CHOICES, paymentMethodFieldErrors, validatePaymentMethod } from './payment-method.ts';
import { isStorableText, storableText } from '../callable/storable-text.ts';
import { formSchema } from '../callable/field-errors.ts';

// Affiliate accounts (docs/product/routes-and-screens.md#affiliate-signup signup/login, §3, §5). Written with `zod/mini`: the signup and login
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

/** Optional text: empty becomes null (docs/product/calls-and-data.md#data-model: "phone (null if empty)"). */
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
// No `abort` on the password's checks: a short password and a different confirmation are both
// reported (the form shows the mismatch first), and each field keeps its first message.
const password = z
  .string('errors.allFieldsRequired')
  .check(
    z.minLength(1, 'errors.allFieldsRequired'),
    z.minLength(PASSWORD_MIN_LENGTH, 'errors.passwordTooShort'),
    z.maxLength(PASSWORD_MAX_LENGTH, 'errors.passwordTooLong'),
  );
const confirmPassword = z.string('errors.allFieldsRequired').check(z.minLength(1, 'errors.allFieldsRequired'));

/** The confirmation equals the password (reported on `confirmPassword`). */
const passwordsMatch = () =>
  z.refine<{ password: string; confirmPassword: string }>((value) => value.password === value.confirmPassword, {
    path: ['confirmPassword'],
    error: 'errors.passwordMismatch',
  });

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

/** Signup step 1, the account (docs/product/rules-and-constants.md#validation allFieldsRequired, passwordMismatch, passwordTooShort). */
const accountFields = { email, password };
/** Signup step 2, the profile: names required, optional fields within bounds, an http(s) website. */
const profileFields = {
  firstName: requiredText('errors.namesRequired', PROFILE_LIMITS.name),
  lastName: requiredText('errors.namesRequired', PROFILE_LIMITS.name),
  phone: optionalText(PROFILE_LIMITS.phone),
  companyName: optionalText(PROFILE_LIMITS.companyName),
  website,
};
/** Signup step 3: a payment choice, its details, and the terms. */
const paymentFields = {
  paymentMethod: z.enum(SIGNUP_PAYMENT_CHOICES, 'errors.paymentMethodRequired'),
  /** Free-form (the method decides the fields): its keys are storable text; `validatePaymentMethod` checks the values. */
  paymentDetails: z.optional(z.nullable(z.record(z.string().check(storableText()), z.unknown()))),
  termsAccepted: z.literal(true, 'errors.termsRequired'),
};

/**
 * The chosen method's details, checked by the shared payment rule: one issue per field it names,
 * with the message of the `payment` namespace. It runs whenever the choice itself is valid, so the
 * terms and the details are both reported.
 */
const paymentDetailsValid = z.superRefine<{ paymentMethod: unknown; paymentDetails?: unknown }>(
  (value, ctx) => {
    if (value.paymentMethod === 'later') return;
    const result = validatePaymentMethod(value.paymentMethod, value.paymentDetails ?? {});
    if (result.ok) return;
    for (const error of paymentMethodFieldErrors(result)) {
      ctx.issues.push({ code: 'custom', input: value.paymentDetails, path: error.path.split('.'), message: error.key });
    }
  },
  {
    when: (payload) => {
      const method = (payload.value as { paymentMethod?: unknown } | null)?.paymentMethod;
      return (SIGNUP_PAYMENT_CHOICES as readonly unknown[]).includes(method);
    },
  },
);

/**
 * The three signup steps (docs/product/routes-and-screens.md#affiliate-signup): each step's check in the browser is its schema; the request
 * the server validates is composed of the same fields. Messages are keys of the `auth` namespace
 * (the payment method's, of `payment`).
 */
export const signupStepSchemas = [
  formSchema('auth', z.object({ ...accountFields, confirmPassword }).check(passwordsMatch())),
  formSchema('auth', z.object(profileFields)),
  formSchema('auth', z.object(paymentFields).check(paymentDetailsValid)),
] as const;

/**
 * The signup payload (docs/product/calls-and-data.md#data-model) with the password and the terms checkbox:
 * account and affiliate profile are created by one server operation (docs/product/rules-and-constants.md#security).
 */
export const createAffiliateRequestSchema = formSchema(
  'auth',
  z
    .object({
      ...accountFields,
      ...profileFields,
      ...paymentFields,
      /** The page's language: e-mails to the affiliate use it. */
      language: z.optional(z.enum(LANGUAGES)),
    })
    .check(paymentDetailsValid),
);

export type CreateAffiliateRequest = z.input<typeof createAffiliateRequestSchema>;
export type CreateAffiliateInput = z.output<typeof createAffiliateRequestSchema>;

export interface CreateAffiliateResponse {
  affiliateId: string;
  status: AffiliateStatus;
}

export const AFFILIATE_STATUSES = ['pending', 'active', 'refused'] as const;
export type AffiliateStatus = (typeof AFFILIATE_STATUSES)[number];

/** Sign-in (docs/product/rules-and-constants.md#validation: 'Email and password are required.'); the console's sign-in is the same form. */
export const signInSchema = formSchema(
  'auth',
  z.object({
    email: z.string('errors.loginRequired').check(z.trim(), z.minLength(1, 'errors.loginRequired')),
    password: z.string('errors.loginRequired').check(z.minLength(1, 'errors.loginRequired')),
  }),
);

/** The reset-link request: one address. */
export const passwordResetRequestSchema = formSchema(
  'auth',
  z.object({
    email: z.pipe(requiredText('errors.emailRequired', PROFILE_LIMITS.email), z.email('errors.emailInvalid')),
  }),
);

/** A new password chosen from a reset link: given, confirmed, long enough (docs/product/rules-and-constants.md#validation), as at signup. */
export const newPasswordSchema = formSchema('auth', z.object({ password, confirmPassword }).check(passwordsMatch()));

const changeText = (max?: number) =>
  z
    .string('settings.password.errors.required')
    .check(
      z.minLength(1, 'settings.password.errors.required'),
      ...(max
        ? [
            z.minLength(PASSWORD_MIN_LENGTH, 'settings.password.errors.tooShort'),
            z.maxLength(max, 'settings.password.errors.tooLong'),
          ]
        : []),
    );

/** The dashboard's password change (docs/product/routes-and-screens.md#settings-tab: the current password is required). Keys of `dashboard`. */
export const changePasswordSchema = formSchema(
  'dashboard',
  z
    .object({
      currentPassword: changeText(),
      newPassword: changeText(PASSWORD_MAX_LENGTH),
      confirmPassword: changeText(),
    })
    .check(
      z.refine((value) => value.newPassword === value.confirmPassword, {
        path: ['confirmPassword'],
        error: 'settings.password.errors.mismatch',
      }),
    ),
);
export type PasswordChange = z.input<typeof changePasswordSchema>;

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

/** Account deletion, confirmed by the password; a wrong one is refused on `password` too. Keys of `dashboard`. */
export const deleteAccountRequestSchema = formSchema(
  'dashboard',
  z.object({
    /** The account's password, as confirmation. */
    password: z
      .string('settings.delete.errors.wrongPassword')
      .check(
        z.minLength(1, 'settings.delete.errors.wrongPassword'),
        z.maxLength(PASSWORD_MAX_LENGTH, 'settings.delete.errors.wrongPassword'),
      ),
  }),
);

/**
 * `updateAffiliatePaymentMethod` (docs/product/rules-and-constants.md#validation, docs/product/calls-and-data.md#server-functions). Both fields are read as they come:
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
