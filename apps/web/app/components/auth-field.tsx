import type { InputHTMLAttributes, ReactNode } from 'react';
import './auth-form.css';

// One labelled input of the signup, login and reset forms: marked invalid and pointed at the form's
// error banner when the last check named it, with an optional hint below.

export interface AuthFieldProps extends Pick<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'autoComplete' | 'maxLength' | 'inputMode'
> {
  id: string;
  name: string;
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  /** The last check named this field: aria-invalid, described by the error banner. */
  invalid: boolean;
  /** Id of the form's error banner. */
  errorId: string;
  hint?: string;
  required?: boolean;
}

export function AuthField({
  id,
  name,
  label,
  value,
  onChange,
  invalid,
  errorId,
  hint,
  required = true,
  type = 'text',
  ...input
}: AuthFieldProps) {
  const describedBy = [hint ? `${id}-hint` : '', invalid ? errorId : ''].filter(Boolean).join(' ');
  return (
    <div className="form-field">
      <label className="form-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        required={required}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...input}
      />
      {hint ? (
        <p className="form-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}
