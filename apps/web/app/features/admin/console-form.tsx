import type { ReactNode } from 'react';
import { type FieldAria, type FieldError, errorAt, fieldAria, fieldErrorText } from '../../lib/form-errors';
import { useTranslation } from '../../lib/react-i18n';

// A console form's field (ADR 009): its label, the control, its hint, and the message of the error
// about its path — from the shared schema's check before sending, or from the server's
// `details.fields` — next to it, in the page's language. The control is marked invalid and described
// by the hint and the message (lib/form-errors `fieldAria`).

export interface FieldControlProps extends FieldAria {
  id: string;
}

export function ConsoleField({
  id,
  path,
  label,
  hint,
  errors,
  className,
  children,
}: {
  id: string;
  /** The field's path in the request (`tiers.1.cents`). */
  path: string;
  label: string;
  hint?: string;
  errors: readonly FieldError[];
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const { t } = useTranslation('admin');
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
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {fieldErrorText(t, error)}
        </p>
      ) : null}
    </div>
  );
}

/** The errors no field of the form shows (a path the form has no field for), as one message each. */
export function unplacedErrors(errors: readonly FieldError[], paths: readonly string[]): FieldError[] {
  return errors.filter((error) => !paths.some((path) => error.path === path || error.path.startsWith(`${path}.`)));
}
