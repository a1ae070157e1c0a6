import { normaliseWebsite, type CreateAffiliateRequest, signupStepSchemas } from '@skanova/shared/affiliate/schemas';
import { checkForm } from '@skanova/shared/callable/field-errors';
import { isLanguage } from '@skanova/shared/site/constants';
import { CallableClientError } from '../../lib/callable';
import { type FieldError, callFieldErrors, isAbout, leadingErrors } from '../../lib/form-errors';
import { EMPTY_PAYMENT_FORM, type PaymentFormValues, paymentDetailsOf } from '../../components/payment-method-fields';

// The three signup steps (docs/product/routes-and-screens.md#affiliate-signup, docs/product/rules-and-constants.md#validation): what each step checks before the next one, what is sent,
// and where a refusal from the server sends the visitor back to. Each step's check is its shared
// schema (`signupStepSchemas`), the same fields the server's request schema is composed of; a
// refusal from the server comes back in the same shape (field errors), sent to the step of its field.

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

/**
 * What keeps the visitor on a step: the errors the form shows (one message, the fields it names),
 * or, when no field is at fault, the failure itself (the callable catalogue or the generic message).
 */
export interface SignupProblem {
  step: SignupStep;
  errors: FieldError[];
  failure?: unknown;
}

/** Which message a step shows first: a missing field, different passwords, then field by field. */
const MESSAGE_ORDER = [
  'auth:errors.allFieldsRequired',
  'auth:errors.passwordMismatch',
  'password',
  'confirmPassword',
  'email',
  'paymentMethod',
  'paymentDetails',
  'termsAccepted',
];

/** The fields of each step, as the request names them. */
const STEP_FIELDS: Record<SignupStep, readonly string[]> = {
  1: ['email', 'password', 'confirmPassword'],
  2: ['firstName', 'lastName', 'phone', 'companyName', 'website'],
  3: ['paymentMethod', 'paymentDetails', 'termsAccepted', 'language'],
};

/** What a step's schema checks: the values as they will be sent. */
function stepValues(step: SignupStep, values: SignupValues): Record<string, unknown> {
  if (step === 1) return { email: values.email, password: values.password, confirmPassword: values.confirmPassword };
  if (step === 2) {
    const { firstName, lastName, phone, companyName } = values;
    return { firstName, lastName, phone, companyName, website: normaliseWebsite(values.website) };
  }
  const method = values.payment.method;
  return {
    paymentMethod: method,
    paymentDetails: method === 'later' ? null : paymentDetailsOf(values.payment),
    termsAccepted: values.termsAccepted,
  };
}

/** The step's own check, by its schema. */
function checkStep(step: SignupStep, values: SignupValues): SignupProblem | null {
  const checked = checkForm(signupStepSchemas[step - 1]!, stepValues(step, values));
  return checked.success ? null : { step, errors: leadingErrors(checked.errors, MESSAGE_ORDER) };
}

/**
 * Whether a problem is about the payment method chosen when it was found (its details, or no
 * method at all): once the visitor picks another method it no longer applies, so it is cleared.
 */
export function concernsPaymentMethod(problem: SignupProblem): boolean {
  return problem.errors.some((error) => isAbout(error, 'paymentMethod') || isAbout(error, 'paymentDetails'));
}

/**
 * What keeps the visitor on `step`. Next checks the step's own fields; Create account checks them
 * all again and reports the earliest problem, on its step.
 */
export function stepProblem(step: SignupStep, values: SignupValues): SignupProblem | null {
  if (step < LAST_STEP) return checkStep(step, values);
  for (const each of SIGNUP_STEPS) {
    const found = checkStep(each, values);
    if (found) return found;
  }
  return null;
}

/** The `createAffiliate` request (docs/product/calls-and-data.md#data-model): empty optional fields become null. */
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

/** The step a request field is typed on (the form as a whole: the last). */
function stepOfPath(path: string): SignupStep {
  const field = path.split('.', 1)[0] ?? '';
  return SIGNUP_STEPS.find((step) => STEP_FIELDS[step].includes(field)) ?? LAST_STEP;
}

/**
 * A refused signup, mapped back to the form: its field errors (the schema's, or an address already
 * used) to the earliest step they concern; the signup limit as its own message; the rest shown on
 * the last step as a failure.
 */
export function serverProblem(error: unknown): SignupProblem {
  const fields = callFieldErrors(error);
  if (fields.length > 0) {
    const step = Math.min(...fields.map((field) => stepOfPath(field.path))) as SignupStep;
    const onStep = fields.filter((field) => stepOfPath(field.path) === step);
    return { step, errors: leadingErrors(onStep, MESSAGE_ORDER) };
  }
  if (error instanceof CallableClientError && error.code === 'too-many-requests')
    return { step: LAST_STEP, errors: [{ path: '', key: 'auth:errors.tooManyRequests' }] };
  return { step: LAST_STEP, errors: [], failure: error };
}
