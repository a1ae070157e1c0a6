import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { signInSchema } from '@skanova/shared/affiliate/schemas';
import { checkForm } from '@skanova/shared/callable/field-errors';
import { signIn } from '../lib/auth/auth-client';
import { loginErrorKey } from '../lib/auth/auth-messages';
import { type FieldError, fieldErrorText } from '../lib/form-errors';
import { useSession } from '../lib/auth/session';
import { useTranslation } from '../lib/react-i18n';
import { AuthField, EmailField } from './auth-field';
import { ErrorBanner, SubmitActions } from './form-parts';
import './auth-form.css';

// The one sign-in form of the affiliate area and the console (the same accounts): e-mail and
// password checked by the shared `signInSchema`, a busy label, the spec's login catalogue (§8); the
// session is read again on success. Field labels and messages: `auth` namespace.

export interface SignInFormProps {
  /** Prefix of the ids (inputs, error banner), unique on the page. */
  idPrefix: string;
  /** The form's accessible name (the page's title). */
  label: string;
  submitLabel: string;
  busyLabel: string;
  /** After the session is read again (e.g. open the dashboard); the button stays busy meanwhile. */
  onSignedIn?: () => void | Promise<void>;
  /** More actions beside the submit button, given the address typed so far and whether the form is hydrated. */
  actions?: (state: { email: string; ready: boolean }) => ReactNode;
}

export function SignInForm({ idPrefix, label, submitLabel, busyLabel, onSignedIn, actions }: SignInFormProps) {
  const { t } = useTranslation('auth');
  const { refresh } = useSession();
  const emailState = useState('');
  const passwordState = useState('');
  const [email] = emailState;
  const [password] = passwordState;
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  const errorId = `${idPrefix}-error`;

  useEffect(() => setReady(true), []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !ready) return;
    const checked = checkForm(signInSchema, { email, password });
    if (!checked.success) return setErrors(checked.errors);
    setBusy(true);
    setErrors([]);
    try {
      await signIn(email, password);
      await refresh();
      await onSignedIn?.();
    } catch (error) {
      setErrors([{ path: '', key: `auth:${loginErrorKey(error)}` }]);
      setBusy(false);
    }
  }

  const lead = errors[0];
  const shown = { errors, id: errorId };
  return (
    <>
      {lead ? (
        <ErrorBanner id={errorId} focusKey={errors}>
          {fieldErrorText(t, lead)}
        </ErrorBanner>
      ) : null}
      <form className="auth-form" noValidate onSubmit={onSubmit} aria-label={label}>
        <EmailField id={`${idPrefix}-email`} state={emailState} autoComplete="username" shown={shown} />
        <AuthField
          id={`${idPrefix}-password`}
          name="password"
          type="password"
          label={t('fields.password')}
          state={passwordState}
          autoComplete="current-password"
          shown={shown}
        />
        <SubmitActions
          className="auth-form__actions"
          label={submitLabel}
          busyLabel={busyLabel}
          busy={busy}
          disabled={!ready}
        >
          {actions?.({ email, ready })}
        </SubmitActions>
      </form>
    </>
  );
}
