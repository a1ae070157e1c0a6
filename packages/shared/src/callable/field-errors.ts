import type { $ZodType } from 'zod/v4/core';
import type { ZodMiniType, output } from 'zod/mini';

// One error shape from the server to a form (ADR 009): a form's input refused field by field is a
// list of field errors, each the path of the field in the request ("paymentDetails.bankIban") and
// the translation key of its message, with its namespace ("payment:errors.invalid-iban"). The
// browser's checks produce the same list from the same schema before anything is sent; the server
// answers it as `details.fields` of an `invalid-argument` (or of any refusal about a field, such as
// an address already used). A path of '' is about the form as a whole.

export interface FieldError {
  /** The field's path in the request, its segments joined by dots; '' for the whole form. */
  path: string;
  /** An i18n key with its namespace: `auth:errors.emailTaken`. */
  key: string;
}

/** What a refusal about fields carries in `details` (besides `code`, where there is one). */
export interface FieldErrorDetails {
  fields: FieldError[];
}

/** The key of a message no form knows (a wrong type sent by hand): the protocol's own wording. */
export const UNKNOWN_FIELD_ERROR_KEY = 'common:callable.invalid-argument';

/** What a key looks like: `errors.emailInvalid`, `form.errors.nameRequired`, `payment:errors.invalid-iban`. */
const KEY = /^(?:[a-z][\w-]*:)?[a-zA-Z][\w-]*(?:\.[\w-]+)+$/;

/** The namespace of each form schema's messages (see `formSchema`). */
const namespaces = new WeakMap<object, string>();

/**
 * Declares a form's schema: its messages are keys of the i18n namespace `namespace` (a message may
 * also name its own, `payment:errors.invalid-iban`). The server's callable layer then answers a
 * refused input with `details.fields`, and `checkForm` gives the browser the same list.
 */
export function formSchema<S extends $ZodType>(namespace: string, schema: S): S {
  namespaces.set(schema, namespace);
  return schema;
}

/** The namespace `formSchema` declared for `schema`, if it is a form's. */
export function formNamespaceOf(schema: object): string | undefined {
  return namespaces.get(schema);
}

interface IssueLike {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** A message of a schema whose messages are keys of `namespace`, as a namespaced key. */
export function messageKey(message: string, namespace: string): string {
  if (!KEY.test(message)) return UNKNOWN_FIELD_ERROR_KEY;
  return message.includes(':') ? message : `${namespace}:${message}`;
}

/** Zod issues → field errors: one per field (its first issue), in the order of the issues. */
export function fieldErrorsFromIssues(issues: readonly IssueLike[], namespace: string): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const issue of issues) {
    const path = issue.path.map(String).join('.');
    if (seen.has(path)) continue;
    seen.add(path);
    errors.push({ path, key: messageKey(issue.message, namespace) });
  }
  return errors;
}

export type FormCheck<S extends ZodMiniType> =
  { success: true; data: output<S>; errors: [] } | { success: false; errors: FieldError[] };

/**
 * Checks a form's values with its schema (declared by `formSchema`): the parsed request, or its
 * field errors. It imports nothing of zod at run time: the schema parses itself, so a page that
 * only reads a server's field errors does not load zod.
 */
export function checkForm<S extends ZodMiniType>(schema: S, values: unknown): FormCheck<S> {
  const parsed = schema.safeParse(values);
  if (parsed.success) return { success: true, data: parsed.data as output<S>, errors: [] };
  return { success: false, errors: fieldErrorsFromIssues(parsed.error.issues, formNamespaceOf(schema) ?? 'common') };
}

/** Whether `value` is a list of field errors (as read from a server's answer). */
export function isFieldErrorList(value: unknown): value is FieldError[] {
  return (
    Array.isArray(value) &&
    value.every(
      (item) =>
        typeof item === 'object' &&
        item !== null &&
        typeof (item as FieldError).path === 'string' &&
        typeof (item as FieldError).key === 'string',
    )
  );
}

/** The field errors of a refusal's `details`, or none. */
export function fieldErrorsOfDetails(details: unknown): FieldError[] {
  const fields = typeof details === 'object' && details !== null ? (details as { fields?: unknown }).fields : undefined;
  return isFieldErrorList(fields) ? fields : [];
}
