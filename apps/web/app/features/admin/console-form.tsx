import type { InputHTMLAttributes, ReactNode } from 'react';
import { type FieldAria, type FieldError, errorAt, fieldAria, fieldErrorText } from '../../lib/form-errors';
import { useTranslation } from '../../lib/react-i18n';

// A console form's field (ADR 009): its label, the control, its hint, and the message of the error
// about its path — from the shared schema's check before sending, or from the server's
// `details.fields` — next to it, in the page's language. The control is marked invalid and described
// by the hint and the message (lib/form-errors `fieldAria`). Most fields are one text input
// (`ConsoleInput`); a select or another control goes in `ConsoleField` itself.

export interface FieldControlProps extends FieldAria {
  id: string;
}

interface FieldProps {
  id: string;
  /** The field's path in the request (`tiers.1.cents`). */
  path: string;
  label: string;
  hint?: string;
  errors: readonly FieldError[];
  className?: string;
}

export function ConsoleField({
  id,
  path,
  label,
  hint,
  errors,
  className,
  children,
}: FieldProps & { children: (control: FieldControlProps) => ReactNode }) {
  const error = errorAt(errors, path);
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className={className ? `form-field ${className}` : 'form-field'}>
      <label htmlFor={id}>{label}</label>
      {children({ id, ...fieldAria(errors, path, `${id}-error`, hintId) })}
      {hint ? (
        <p id={hintId} className="form-hint">
          {hint}
        </p>
      ) : null}
      <ConsoleError error={error} id={`${id}-error`} />
    </div>
  );
}

/** The input's own attributes a console field may set; its value and changes are `value` and `onValue`. */
type InputProps = Pick<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'inputMode' | 'maxLength' | 'readOnly' | 'autoCapitalize' | 'spellCheck'
>;

/** A console field whose control is one `<input>` holding `value`; each change is given to `onValue`. */
export function ConsoleInput({
  value,
  onValue,
  id,
  path,
  label,
  hint,
  errors,
  className,
  ...input
}: FieldProps & InputProps & { value: string; onValue: (value: string) => void }) {
  return (
    <ConsoleField id={id} path={path} label={label} hint={hint} errors={errors} className={className}>
      {(control) => <input {...input} {...control} value={value} onChange={(event) => onValue(event.target.value)} />}
    </ConsoleField>
  );
}

/**
 * The message of one field error, in the page's language, or nothing: under its field, or for an
 * error no field of the form shows (a group of fields, a path the form has no control for).
 */
export function ConsoleError({ error, id }: { error: FieldError | undefined; id?: string }) {
  const { t } = useTranslation('admin');
  return error ? (
    <p className="field-error" id={id}>
      {fieldErrorText(t, error)}
    </p>
  ) : null;
}

/** The errors no field of the form shows (a path the form has no field for), as one message each. */
export function unplacedErrors(errors: readonly FieldError[], paths: readonly string[]): FieldError[] {
  return errors.filter((error) => !paths.some((path) => error.path === path || error.path.startsWith(`${path}.`)));
}
