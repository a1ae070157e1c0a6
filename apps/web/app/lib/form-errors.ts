import { type FieldError, fieldErrorsOfDetails } from '@skanova/shared/callable/field-errors';
import { CallableClientError } from './callable';

// The browser's side of the forms' one error shape (ADR 009): field errors (path + namespaced
// translation key) come from the form's shared schema before sending (`checkForm`) or from the
// server's refusal (`details.fields`); every form turns them into messages and marks its fields the
// same way here.

export type { FieldError };

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The field errors a failed call carries (`details.fields`), or none. */
export function callFieldErrors(error: unknown): FieldError[] {
  return error instanceof CallableClientError ? fieldErrorsOfDetails(error.details) : [];
}

/** Whether an error is about `path` or a field inside it (`paymentDetails` covers `paymentDetails.bic`). */
export function isAbout(error: FieldError, path: string): boolean {
  return error.path === path || error.path.startsWith(`${path}.`);
}

/**
 * The errors a form with one message shows: the leading error — the first by `order` (keys or
 * paths, most important first; an error matched by none comes after, in its own order) — and
 * every other error with the same key (one message for the fields it names).
 */
export function leadingErrors(errors: readonly FieldError[], order: readonly string[] = []): FieldError[] {
  const rank = (error: FieldError) => {
    const index = order.findIndex((entry) => entry === error.key || isAbout(error, entry));
    return index === -1 ? order.length : index;
  };
  let lead: FieldError | undefined;
  for (const error of errors) if (!lead || rank(error) < rank(lead)) lead = error;
  return lead ? errors.filter((error) => error.key === lead.key) : [];
}

/**
 * The text of an error: its key, with `values`, and `fields` — the labels (`<namespace>:fields.<name>`)
 * of every field in `related` with the same key, for messages that name them ("Bank information is
 * required: IBAN, BIC").
 */
export function fieldErrorText(
  t: Translate,
  error: FieldError,
  related: readonly FieldError[] = [error],
  values: Record<string, unknown> = {},
): string {
  const namespace = error.key.split(':', 1)[0];
  const labels = related
    .filter((other) => other.key === error.key && other.path !== '')
    .map((other) => t(`${namespace}:fields.${other.path.split('.').pop() ?? ''}`));
  return t(error.key, { ...values, fields: labels.join(', ') });
}

/** The first error about `path`, if any. */
export function errorAt(errors: readonly FieldError[], path: string): FieldError | undefined {
  return errors.find((error) => isAbout(error, path));
}

export interface FieldAria {
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * An input's error attributes: invalid when an error is about its path, described by its hint and
 * then, when invalid, by the element that says what is wrong (`errorId`: the form's message, or the
 * field's own).
 */
export function fieldAria(
  errors: readonly FieldError[],
  path: string,
  errorId: string | undefined,
  hintId?: string,
): FieldAria {
  const invalid = errors.some((error) => isAbout(error, path));
  const describedBy = [hintId, invalid ? errorId : undefined].filter(Boolean).join(' ');
  return { 'aria-invalid': invalid ? true : undefined, 'aria-describedby': describedBy || undefined };
}
