import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import {
  AFFILIATE_LOGIN_PAGE,
  AFFILIATE_RESET_PASSWORD_PAGE,
  PASSWORD_RESET_TOKEN_SECONDS,
  PROFILE_LIMITS,
} from '@skanova/shared/affiliate/constants';
import { useTranslation } from '../../lib/react-i18n';
import { AuthError, requestPasswordReset, resetPassword } from '../../lib/auth/auth-client';
import { AuthField } from '../../components/auth-field';
import {
  type FieldProblem,
  PASSWORD_LIMITS,
  newPasswordProblem,
  resetEmailProblem,
  resetErrorKey,
} from '../../lib/auth/auth-messages';
import type { ResetPasswordState } from './login-form';
import { useSession } from '../../lib/auth/session';

// The forgot-password flow (BRIEF §5.9): without a token, ask for the address and send a link (the
// same answer whether or not an account exists); with the link's ?token=, choose a new password.
// The page is prerendered without a query, so the mode is decided after hydration, never in the
// first render (which shows a spinner in both cases).

const ERROR_ID = 'reset-error';

function useFocusOn<T extends HTMLElement>(value: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (value) ref.current?.focus();
  }, [value]);
  return ref;
}

function ErrorBanner({ problem }: { problem: FieldProblem | null }) {
  const { t } = useTranslation('auth');
  const ref = useFocusOn<HTMLDivElement>(problem);
  if (!problem) return null;
  return (
    <div id={ERROR_ID} ref={ref} className="form-error" role="alert" tabIndex={-1}>
      {t(problem.key, PASSWORD_LIMITS)}
    </div>
  );
}

function PasswordField({
  name,
  label,
  value,
  onChange,
  problem,
}: {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  problem: FieldProblem | null;
}) {
  return (
    <AuthField
      id={`reset-${name}`}
      name={name}
      type="password"
      label={label}
      value={value}
      onChange={onChange}
      autoComplete="new-password"
      maxLength={PASSWORD_LIMITS.max}
      invalid={problem?.fields.includes(name) ?? false}
      errorId={ERROR_ID}
    />
  );
}

/** A confirmation (role="status") that takes focus so that it is read at once. */
function Done({ children }: { children: ReactNode }) {
  const ref = useFocusOn<HTMLDivElement>(true);
  return (
    <div ref={ref} className="form-success" role="status" tabIndex={-1}>
      {children}
    </div>
  );
}

function RequestLinkForm() {
  const { t } = useTranslation('auth');
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<FieldProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  // The login page passes the address typed there.
  const carried = (location.state as ResetPasswordState | null)?.email;
  useEffect(() => {
    if (carried) setEmail(carried);
  }, [carried]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const found = resetEmailProblem(email);
    if (found) return setProblem(found);
    setBusy(true);
    setProblem(null);
    try {
      await requestPasswordReset(email);
      setSentTo(email.trim());
    } catch (error) {
      setProblem({ key: resetErrorKey(error), fields: [] });
    } finally {
      setBusy(false);
    }
  }

  if (sentTo) {
    return (
      <>
        <h2 className="auth-form__heading">{t('reset.request.heading')}</h2>
        <Done>
          <p>{t('reset.request.sent', { email: sentTo, minutes: PASSWORD_RESET_TOKEN_SECONDS / 60 })}</p>
        </Done>
        <p className="auth-card__switch">
          <Link to={AFFILIATE_LOGIN_PAGE}>{t('reset.backToLogin')}</Link>
        </p>
      </>
    );
  }

  const invalid = problem?.fields.includes('email') ?? false;
  return (
    <>
      <ErrorBanner problem={problem} />
      <form className="auth-form" noValidate onSubmit={onSubmit} aria-labelledby="reset-heading">
        <h2 id="reset-heading" className="auth-form__heading">
          {t('reset.request.heading')}
        </h2>
        <p className="auth-form__lead">{t('reset.request.lead')}</p>
        <AuthField
          id="reset-email"
          name="email"
          type="email"
          label={t('fields.email')}
          value={email}
          onChange={setEmail}
          autoComplete="email"
          maxLength={PROFILE_LIMITS.email}
          invalid={invalid}
          errorId={ERROR_ID}
        />
        <div className="form-actions auth-form__actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? t('reset.request.submitting') : t('reset.request.submit')}
          </button>
        </div>
      </form>
      <p className="auth-card__switch">
        <Link to={AFFILIATE_LOGIN_PAGE}>{t('reset.backToLogin')}</Link>
      </p>
    </>
  );
}

function ChoosePasswordForm({ token }: { token: string }) {
  const { t } = useTranslation('auth');
  const { refresh } = useSession();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [problem, setProblem] = useState<FieldProblem | null>(null);
  const [status, setStatus] = useState<'idle' | 'busy' | 'done' | 'invalid-token'>('idle');

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status === 'busy') return;
    const found = newPasswordProblem(password, confirmPassword);
    if (found) return setProblem(found);
    setStatus('busy');
    setProblem(null);
    try {
      await resetPassword(token, password);
      // Every session of the account was revoked, this browser's included.
      await refresh();
      setStatus('done');
    } catch (error) {
      if (error instanceof AuthError && error.code === 'invalid-token') return setStatus('invalid-token');
      setProblem({ key: resetErrorKey(error), fields: [] });
      setStatus('idle');
    }
  }

  if (status === 'done') {
    return (
      <>
        <h2 className="auth-form__heading">{t('reset.choose.heading')}</h2>
        <Done>
          <p>{t('reset.choose.done')}</p>
        </Done>
        <Link className="button button--primary" to={AFFILIATE_LOGIN_PAGE}>
          {t('login.submit')}
        </Link>
      </>
    );
  }
  if (status === 'invalid-token') {
    return (
      <>
        <h2 className="auth-form__heading">{t('reset.choose.heading')}</h2>
        <ErrorBanner problem={{ key: 'reset.choose.invalidToken', fields: [] }} />
        <button
          type="button"
          className="button button--primary"
          onClick={() => void navigate(AFFILIATE_RESET_PASSWORD_PAGE, { replace: true })}
        >
          {t('reset.choose.requestNew')}
        </button>
      </>
    );
  }
  const busy = status === 'busy';
  return (
    <>
      <ErrorBanner problem={problem} />
      <form className="auth-form" noValidate onSubmit={onSubmit} aria-labelledby="reset-heading">
        <h2 id="reset-heading" className="auth-form__heading">
          {t('reset.choose.heading')}
        </h2>
        <p className="auth-form__lead">{t('reset.choose.lead', PASSWORD_LIMITS)}</p>
        <PasswordField
          name="password"
          label={t('reset.choose.password')}
          value={password}
          onChange={setPassword}
          problem={problem}
        />
        <PasswordField
          name="confirmPassword"
          label={t('reset.choose.confirmPassword')}
          value={confirmPassword}
          onChange={setConfirmPassword}
          problem={problem}
        />
        <div className="form-actions auth-form__actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? t('reset.choose.submitting') : t('reset.choose.submit')}
          </button>
        </div>
      </form>
    </>
  );
}

export default function ResetPasswordForm() {
  const { t } = useTranslation('common');
  const [params] = useSearchParams();
  // null until hydrated: the prerendered page cannot know the query.
  const [token, setToken] = useState<string | null>(null);
  useEffect(() => setToken(params.get('token') ?? ''), [params]);

  if (token === null) {
    return (
      <div className="page-loading" role="status">
        <span className="spinner" aria-hidden="true" />
        <span className="visually-hidden">{t('loading')}</span>
      </div>
    );
  }
  return token ? <ChoosePasswordForm key={token} token={token} /> : <RequestLinkForm />;
}
