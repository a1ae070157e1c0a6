import { type InputHTMLAttributes, type ReactNode, useRef } from 'react';
import { PROFILE_LIMITS } from '@skanova/shared/affiliate/constants';
import { type FieldError, fieldAria } from '../lib/form-errors';
import { useTranslation } from '../lib/react-i18n';
import { useTypedBeforeHydration } from '../lib/typed-before-hydration';
import './auth-form.css';

// One labelled input of the signup, login and reset forms: marked invalid and pointed at the form's
// error banner when an error shown is about it (lib/form-errors), with an optional hint below. Text
// typed or autofilled on the prerendered page before its script took over is kept.

/** What a form's fields need of its errors: the errors shown, and the id of the message that says them. */
export interface ShownErrors {
  errors: readonly FieldError[];
  id: string;
}

export interface AuthFieldProps extends Pick<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'autoComplete' | 'maxLength' | 'inputMode'
> {
  id: string;
  name: string;
  label: ReactNode;
  /** The value and its setter (a `useState` pair). */
  state: readonly [string, (value: string) => void];
  /** The errors the form shows (the field is invalid when one is about `name`) and the id of its banner. */
  shown: ShownErrors;
  hint?: string;
  required?: boolean;
}

export function AuthField({
  id,
  name,
  label,
  state: [value, onChange],
  shown,
  hint,
  required = true,
  type = 'text',
  ...input
}: AuthFieldProps) {
  const ref = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(ref, value, onChange);
  return (
    <div className="form-field">
      <label className="form-label" htmlFor={id}>
        {label}
      </label>
      <input
        ref={ref}
        id={id}
        name={name}
        type={type}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        required={required}
        {...fieldAria(shown.errors, name, shown.id, hint ? `${id}-hint` : undefined)}
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

/** The e-mail field of the sign-in and reset forms (label and length of the `auth` namespace's account). */
export function EmailField(props: Omit<AuthFieldProps, 'name' | 'type' | 'label' | 'maxLength'>) {
  const { t } = useTranslation('auth');
  return <AuthField {...props} name="email" type="email" label={t('fields.email')} maxLength={PROFILE_LIMITS.email} />;
}
