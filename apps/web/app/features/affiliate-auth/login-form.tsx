import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  AFFILIATE_DASHBOARD_PAGE,
  AFFILIATE_RESET_PASSWORD_PAGE,
  PROFILE_LIMITS,
} from '@skanova/shared/constants/affiliate';
import { validateLogin } from '@skanova/shared/schemas/affiliate';
import { useTranslation } from '../../lib/react-i18n';
import { signIn } from '../../lib/auth/auth-client';
import { AuthField } from '../../components/auth-field';
import { type FieldProblem, loginErrorKey } from '../../lib/auth/auth-messages';
import { useSession } from '../../lib/auth/session';

const ERROR_ID = 'login-error';

/** What the login page hands to the reset page: the address typed so far. */
export interface ResetPasswordState {
  email?: string;
}

/**
 * Affiliate login (spec §2): e-mail and password, a busy label, the spec's error catalogue (§8);
 * success opens the dashboard. "Forgot password?" carries the typed address to the reset page.
 */
export default function LoginForm() {
  const { t } = useTranslation('auth');
  const { refresh } = useSession();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<FieldProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  const banner = useRef<HTMLDivElement>(null);

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
      await navigate(AFFILIATE_DASHBOARD_PAGE, { replace: true });
    } catch (error) {
      setProblem({ key: loginErrorKey(error), fields: [] });
      setBusy(false);
    }
  }

  const invalid = (name: string) => problem?.fields.includes(name) ?? false;
  const state: ResetPasswordState = email.trim() ? { email: email.trim() } : {};

  return (
    <div className="login">
      {problem ? (
        <div id={ERROR_ID} ref={banner} className="form-error" role="alert" tabIndex={-1}>
          {t(problem.key)}
        </div>
      ) : null}
      <form className="auth-form" noValidate onSubmit={onSubmit} aria-label={t('login.title')}>
        <AuthField
          id="login-email"
          name="email"
          type="email"
          label={t('fields.email')}
          value={email}
          onChange={setEmail}
          autoComplete="username"
          maxLength={PROFILE_LIMITS.email}
          invalid={invalid('email')}
          errorId={ERROR_ID}
        />
        <AuthField
          id="login-password"
          name="password"
          type="password"
          label={t('fields.password')}
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
          invalid={invalid('password')}
          errorId={ERROR_ID}
        />
        <div className="form-actions auth-form__actions">
          <button type="submit" className="button button--primary" disabled={!ready || busy}>
            {busy ? t('login.submitting') : t('login.submit')}
          </button>
          <button
            type="button"
            className="button button--ghost"
            disabled={!ready}
            onClick={() => void navigate(AFFILIATE_RESET_PASSWORD_PAGE, { state })}
          >
            {t('login.forgot')}
          </button>
        </div>
      </form>
      <p className="auth-card__switch">
        {t('login.noAccount')} <Link to="/affiliate/signup">{t('login.signup')}</Link>
      </p>
      <p className="auth-card__switch">
        <Link to="/affiliate">{t('login.back')}</Link>
      </p>
    </div>
  );
}
