import {
  type PaymentMethodErrorCode,
  SIGNUP_PAYMENT_CHOICES,
  validatePaymentMethod,
} from '@skanova/shared/affiliate/payment-method';
import {
  type CreateAffiliateRequest,
  createAffiliateRequestSchema,
  normaliseWebsite,
  validateSignupCredentials,
} from '@skanova/shared/affiliate/schemas';
import { isLanguage } from '@skanova/shared/site/constants';
import { CallableClientError } from '../../lib/callable';
import { EMPTY_PAYMENT_FORM, type PaymentFormValues, paymentDetailsOf } from '../../components/payment-method-fields';

// The three signup steps (spec §2, §4, §5): what each step checks before the next one, what is sent,
// and where a refusal from the server sends the visitor back to. The same shared rules as the server
// (`validateSignupCredentials`, the request schema's fields, `validatePaymentMethod`), the same keys.

export const SIGNUP_STEPS = [1, 2, 3] as const;
export type SignupStep = (typeof SIGNUP_STEPS)[number];
export const LAST_STEP: SignupStep = 3;

export interface SignupValues {
  email: string;
  password: string;
  confirmPassword: string;
  firstName: string;
  lastName: string;
  phone: string;
  companyName: string;
  website: string;
  payment: PaymentFormValues;
  termsAccepted: boolean;
}

export const EMPTY_SIGNUP: SignupValues = {
  email: '',
  password: '',
  confirmPassword: '',
  firstName: '',
  lastName: '',
  phone: '',
  companyName: '',
  website: '',
  payment: EMPTY_PAYMENT_FORM,
  termsAccepted: false,
};

/** What is wrong, on which step, and which fields to mark. */
export type SignupProblem =
  /** `key` is a message of the `auth` namespace. */
  | { kind: 'auth'; key: string; step: SignupStep; fields: string[] }
  /** A payment-method code, translated by the `payment` namespace. */
  | { kind: 'payment'; code: PaymentMethodErrorCode; step: SignupStep; fields: string[] }
  /** Anything else the server answered: the callable catalogue or the generic message. */
  | { kind: 'failure'; error: unknown; step: SignupStep; fields: string[] };

const PROFILE_FIELDS = ['firstName', 'lastName', 'phone', 'companyName', 'website'] as const;
type ProfileField = (typeof PROFILE_FIELDS)[number];

/** Step 1: e-mail, password, confirmation (allFieldsRequired, passwordMismatch, passwordTooShort …). */
function credentialsProblem(values: SignupValues): SignupProblem | null {
  const key = validateSignupCredentials(values);
  if (!key) return null;
  const fields =
    key === 'errors.allFieldsRequired'
      ? (['email', 'password', 'confirmPassword'] as const).filter((field) => values[field].trim() === '')
      : key === 'errors.passwordMismatch'
        ? ['confirmPassword']
        : key.startsWith('errors.password')
          ? ['password']
          : ['email'];
  return { kind: 'auth', key, step: 1, fields };
}

const profileValue = (values: SignupValues, field: ProfileField) =>
  field === 'website' ? normaliseWebsite(values.website) : values[field];

/** Step 2: first and last name required (one message for both), optional fields within bounds, a valid website. */
function profileProblem(values: SignupValues): SignupProblem | null {
  const failing = PROFILE_FIELDS.flatMap((field) => {
    const result = createAffiliateRequestSchema.shape[field].safeParse(profileValue(values, field));
    return result.success ? [] : [{ field, key: result.error.issues[0]?.message ?? 'errors.generic' }];
  });
  const first = failing[0];
  if (!first) return null;
  const fields = failing.filter((failure) => failure.key === first.key).map((failure) => failure.field);
  return { kind: 'auth', key: first.key, step: 2, fields };
}

/** Step 3: a payment choice with valid details, and the terms accepted. */
function paymentProblem(values: SignupValues): SignupProblem | null {
  const { method } = values.payment;
  if (!(SIGNUP_PAYMENT_CHOICES as readonly string[]).includes(method)) {
    return { kind: 'auth', key: 'errors.paymentMethodRequired', step: 3, fields: [] };
  }
  if (method !== 'later') {
    const result = validatePaymentMethod(method, paymentDetailsOf(values.payment));
    if (!result.ok) return { kind: 'payment', code: result.code, step: 3, fields: result.fields ?? [] };
  }
  if (!values.termsAccepted) return { kind: 'auth', key: 'errors.termsRequired', step: 3, fields: ['termsAccepted'] };
  return null;
}

/**
 * Whether a problem is about the payment method chosen when it was found (its details, or no
 * method at all): once the visitor picks another method it no longer applies, so it is cleared.
 */
export function concernsPaymentMethod(problem: SignupProblem): boolean {
  return problem.kind === 'payment' || (problem.kind === 'auth' && problem.key === 'errors.paymentMethodRequired');
}

/**
 * What keeps the visitor on `step`. Next checks the step's own fields; Create account checks them
 * all again and reports the earliest problem, on its step.
 */
export function stepProblem(step: SignupStep, values: SignupValues): SignupProblem | null {
  if (step === 1) return credentialsProblem(values);
  if (step === 2) return profileProblem(values);
  return credentialsProblem(values) ?? profileProblem(values) ?? paymentProblem(values);
}

/** The `createAffiliate` request (spec §3 "Affiliate signup payload"): empty optional fields become null. */
export function signupRequest(values: SignupValues, language: string): CreateAffiliateRequest {
  const optional = (value: string) => (value.trim() === '' ? null : value.trim());
  const method = values.payment.method;
  return {
    email: values.email.trim(),
    password: values.password,
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    phone: optional(values.phone),
    companyName: optional(values.companyName),
    website: optional(normaliseWebsite(values.website)),
    paymentMethod: method,
    paymentDetails: method === 'later' ? null : paymentDetailsOf(values.payment),
    termsAccepted: true,
    ...(isLanguage(language) ? { language } : {}),
  };
}

/** The step each request field is typed on. */
function stepOfField(field: string): SignupStep {
  if (field === 'email' || field === 'password') return 1;
  return (PROFILE_FIELDS as readonly string[]).includes(field) ? 2 : 3;
}

interface Issue {
  path?: unknown;
  message?: unknown;
}

function firstIssue(details: unknown): Issue | undefined {
  const issues = typeof details === 'object' && details !== null ? (details as { issues?: unknown }).issues : undefined;
  return Array.isArray(issues) ? (issues[0] as Issue | undefined) : undefined;
}

function detailFields(details: unknown): string[] {
  const fields = typeof details === 'object' && details !== null ? (details as { fields?: unknown }).fields : undefined;
  return Array.isArray(fields) ? fields.filter((field): field is string => typeof field === 'string') : [];
}

/**
 * A refused signup, mapped back to the form: a taken e-mail to step 1, the server's validation keys
 * (the same as the form's) to their step, payment codes to step 3, the rest shown on the last step.
 * `isPaymentCode` tells whether a code has a translation in the `payment` namespace.
 */
export function serverProblem(error: unknown, isPaymentCode: (code: string) => boolean): SignupProblem {
  const failure: SignupProblem = { kind: 'failure', error, step: LAST_STEP, fields: [] };
  if (!(error instanceof CallableClientError)) return failure;
  if (error.code === 'email-taken') return { kind: 'auth', key: 'errors.emailTaken', step: 1, fields: ['email'] };
  if (error.code === 'too-many-requests')
    return { kind: 'auth', key: 'errors.tooManyRequests', step: LAST_STEP, fields: [] };
  if (isPaymentCode(error.code)) {
    return {
      kind: 'payment',
      code: error.code as PaymentMethodErrorCode,
      step: 3,
      fields: detailFields(error.details),
    };
  }
  const issue = firstIssue(error.details);
  if (error.code !== 'invalid-argument' || typeof issue?.message !== 'string') return failure;
  const field = String(issue.path ?? '').split('.')[0] ?? '';
  if (issue.message.startsWith('payment.')) {
    const code = issue.message.slice('payment.'.length);
    return isPaymentCode(code)
      ? { kind: 'payment', code: code as PaymentMethodErrorCode, step: 3, fields: [] }
      : failure;
  }
  if (!issue.message.startsWith('errors.')) return failure;
  const marked = field === '' || field === 'paymentDetails' || field === 'language' ? [] : [field];
  return { kind: 'auth', key: issue.message, step: stepOfField(field), fields: marked };
}
