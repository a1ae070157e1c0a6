import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { PROFILE_LIMITS } from '@skanova/shared/affiliate/constants';
import { validateLogin } from '@skanova/shared/affiliate/schemas';
import { signIn } from '../lib/auth/auth-client';
import { type FieldProblem, loginErrorKey } from '../lib/auth/auth-messages';
import { useSession } from '../lib/auth/session';
import { useTranslation } from '../lib/react-i18n';
import { AuthField } from './auth-field';
import './auth-form.css';

// The one sign-in form of the affiliate area and the console (the same accounts): e-mail and
// password, a busy label, the spec's login catalogue (§8); the session is read again on success.
// Field labels and messages: `auth` namespace. Styles: auth-forms.css of the page that shows it.

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
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<FieldProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  const banner = useRef<HTMLDivElement>(null);
  const errorId = `${idPrefix}-error`;

  useEffect(() => setReady(true), []);
  useEffect(() => {
    if (problem) banner.current?.focus();
  }, [problem]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !ready) return;
    const missing = validateLogin({ email, password });
    if (missing) {
      const fields = [email.trim() === '' ? 'email' : '', password === '' ? 'password' : ''].filter(Boolean);
      return setProblem({ key: missing, fields });
    }
    setBusy(true);
    setProblem(null);
    try {
      await signIn(email, password);
      await refresh();
      await onSignedIn?.();
    } catch (error) {
      setProblem({ key: loginErrorKey(error), fields: [] });
      setBusy(false);
    }
  }

  const invalid = (name: string) => problem?.fields.includes(name) ?? false;
  return (
    <>
      {problem ? (
        <div id={errorId} ref={banner} className="form-error" role="alert" tabIndex={-1}>
          {t(problem.key)}
        </div>
      ) : null}
      <form className="auth-form" noValidate onSubmit={onSubmit} aria-label={label}>
        <AuthField
          id={`${idPrefix}-email`}
          name="email"
          type="email"
          label={t('fields.email')}
          value={email}
          onChange={setEmail}
          autoComplete="username"
          maxLength={PROFILE_LIMITS.email}
          invalid={invalid('email')}
          errorId={errorId}
        />
        <AuthField
          id={`${idPrefix}-password`}
          name="password"
          type="password"
          label={t('fields.password')}
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
          invalid={invalid('password')}
          errorId={errorId}
        />
        <div className="form-actions auth-form__actions">
          <button type="submit" className="button button--primary" disabled={!ready || busy}>
            {busy ? busyLabel : submitLabel}
          </button>
          {actions?.({ email, ready })}
        </div>
      </form>
    </>
  );
}
