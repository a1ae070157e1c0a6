import { type FormEvent, useEffect, useRef, useState } from 'react';
import { PROFILE_LIMITS } from '@skanova/shared/constants/affiliate';
import { validateLogin } from '@skanova/shared/schemas/affiliate';
import { useTranslation } from '../../lib/react-i18n';
import { signIn } from '../../lib/auth/auth-client';
import { AuthField } from '../../components/auth-field';
import { type FieldProblem, loginErrorKey } from '../../lib/auth/auth-messages';
import { useSession } from '../../lib/auth/session';

const ERROR_ID = 'admin-login-error';

/**
 * Signing in to the console: the affiliate login's fields, checks and messages (spec §8: a disabled
 * account is refused), staying on /admin. The session is then read again and decides the screen.
 */
export function AdminSignIn() {
  const { t } = useTranslation('admin');
  const { t: tAuth } = useTranslation('auth');
  const { refresh } = useSession();
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
    } catch (error) {
      setProblem({ key: loginErrorKey(error), fields: [] });
      setBusy(false);
    }
  }

  const invalid = (name: string) => problem?.fields.includes(name) ?? false;
  return (
    <div className="container auth-page">
      <div className="auth-card">
        <h1>{t('signIn.title')}</h1>
        <p className="auth-card__lead">{t('signIn.lead')}</p>
        {problem ? (
          <div id={ERROR_ID} ref={banner} className="form-error" role="alert" tabIndex={-1}>
            {tAuth(problem.key)}
          </div>
        ) : null}
        <form className="auth-form" noValidate onSubmit={onSubmit} aria-label={t('signIn.title')}>
          <AuthField
            id="admin-login-email"
            name="email"
            type="email"
            label={tAuth('fields.email')}
            value={email}
            onChange={setEmail}
            autoComplete="username"
            maxLength={PROFILE_LIMITS.email}
            invalid={invalid('email')}
            errorId={ERROR_ID}
          />
          <AuthField
            id="admin-login-password"
            name="password"
            type="password"
            label={tAuth('fields.password')}
            value={password}
            onChange={setPassword}
            autoComplete="current-password"
            invalid={invalid('password')}
            errorId={ERROR_ID}
          />
          <div className="form-actions auth-form__actions">
            <button type="submit" className="button button--primary" disabled={!ready || busy}>
              {busy ? t('signIn.submitting') : t('signIn.submit')}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
