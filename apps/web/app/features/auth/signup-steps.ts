import { normaliseWebsite, type CreateAffiliateRequest, signupStepSchemas } from '@skanova/shared/affiliate/schemas';
import { checkForm } from '@skanova/shared/callable/field-errors';
import { isLanguage } from '@skanova/shared/site/constants';
import { CallableClientError } from '../../lib/callable';
import { type FieldError, callFieldErrors, isAbout } from '../../lib/form-errors';
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
 * What keeps the visitor on a step: every error of the step at once (each message with the fields it
 * names: `stepMessages`), or, when no field is at fault, the failure itself (the callable catalogue or
 * the generic message).
 */
export interface SignupProblem {
  step: SignupStep;
  errors: FieldError[];
  failure?: unknown;
}

/** The order of a step's messages: a missing field, different passwords, then field by field. */
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

/** Where an error's message stands among a step's: by MESSAGE_ORDER (its key, or its field), the rest after. */
function rank(error: FieldError): number {
  const index = MESSAGE_ORDER.findIndex((entry) => entry === error.key || isAbout(error, entry));
  return index === -1 ? MESSAGE_ORDER.length : index;
}

/** Every error, in the order their messages are shown (errors of one message keep their own order). */
function ordered(errors: readonly FieldError[]): FieldError[] {
  return errors
    .map((error, index) => ({ error, index }))
    .sort((a, b) => rank(a.error) - rank(b.error) || a.index - b.index)
    .map(({ error }) => error);
}

/**
 * The messages a step shows, all at once: one per message key, in the order of its first error, each
 * with the errors it stands for (one message names every field it concerns: "Bank information is
 * required: bank name, BIC").
 */
export function stepMessages(errors: readonly FieldError[]): FieldError[][] {
  const byKey = new Map<string, FieldError[]>();
  for (const error of ordered(errors)) byKey.set(error.key, [...(byKey.get(error.key) ?? []), error]);
  return [...byKey.values()];
}

/** The step's own check, by its schema: every error it finds. */
function checkStep(step: SignupStep, values: SignupValues): SignupProblem | null {
  const checked = checkForm(signupStepSchemas[step - 1]!, stepValues(step, values));
  return checked.success ? null : { step, errors: ordered(checked.errors) };
}

/**
 * The problem once the visitor picks another payment method: the errors about the method chosen when
 * it was found (its details, or no method at all) no longer apply and go; the others stay. Null when
 * nothing is left to say.
 */
export function afterPaymentMethodChange(problem: SignupProblem): SignupProblem | null {
  const errors = problem.errors.filter(
    (error) => !isAbout(error, 'paymentMethod') && !isAbout(error, 'paymentDetails'),
  );
  if (errors.length === problem.errors.length) return problem;
  return errors.length > 0 || problem.failure !== undefined ? { ...problem, errors } : null;
}

/**
 * What keeps the visitor on `step`. Next checks the step's own fields; Create account checks them
 * all again and reports the earliest step with a problem, with every error of that step.
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
    return { step, errors: ordered(onStep) };
  }
  if (error instanceof CallableClientError && error.code === 'too-many-requests')
    return { step: LAST_STEP, errors: [{ path: '', key: 'auth:errors.tooManyRequests' }] };
  return { step: LAST_STEP, errors: [], failure: error };
}
