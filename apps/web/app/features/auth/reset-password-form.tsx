import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import {
  AFFILIATE_LOGIN_PAGE,
  AFFILIATE_RESET_PASSWORD_PAGE,
  PASSWORD_RESET_TOKEN_SECONDS,
} from '@skanova/shared/affiliate/constants';
import { newPasswordSchema, passwordResetRequestSchema } from '@skanova/shared/affiliate/schemas';
import { checkForm } from '@skanova/shared/callable/field-errors';
import { useTranslation } from '../../lib/react-i18n';
import { AuthError, requestPasswordReset, resetPassword } from '../../lib/auth/auth-client';
import { AuthField, EmailField } from '../../components/auth-field';
import { ErrorBanner, SubmitActions } from '../../components/form-parts';
import { PASSWORD_LIMITS, NEW_PASSWORD_ORDER, resetErrorKey } from '../../lib/auth/auth-messages';
import { type FieldError, fieldErrorText, leadingErrors } from '../../lib/form-errors';
import type { ResetPasswordState } from './login-form';
import { useSession } from '../../lib/auth/session';

// The forgot-password flow (docs/product/routes-and-screens.md#password-reset): without a token, ask for the address and send a link (the
// same answer whether or not an account exists); with the link's ?token=, choose a new password.
// Both checked by their shared schemas. The page is prerendered without a query, so the mode is
// decided after hydration, never in the first render (which shows a spinner in both cases).

const ERROR_ID = 'reset-error';

/** The form's one message: the leading error, focused when it appears. */
function ResetError({ errors }: { errors: readonly FieldError[] }) {
  const { t } = useTranslation('auth');
  const lead = errors[0];
  if (!lead) return null;
  return (
    <ErrorBanner id={ERROR_ID} focusKey={errors}>
      {fieldErrorText(t, lead, errors, PASSWORD_LIMITS)}
    </ErrorBanner>
  );
}

/** A new password field (the password, its confirmation): its label is `reset.choose.<name>`. */
function PasswordField({
  name,
  state,
  errors,
}: {
  name: 'password' | 'confirmPassword';
  state: readonly [string, (value: string) => void];
  errors: readonly FieldError[];
}) {
  const { t } = useTranslation('auth');
  return (
    <AuthField
      id={`reset-${name}`}
      name={name}
      type="password"
      label={t(`reset.choose.${name}`)}
      state={state}
      autoComplete="new-password"
      maxLength={PASSWORD_LIMITS.max}
      shown={{ errors, id: ERROR_ID }}
    />
  );
}

/** One step's form (`reset.<step>.*` texts): its message, heading, lead, fields and submit button. */
function ResetStep({
  step,
  errors,
  busy,
  onSubmit,
  children,
}: {
  step: 'request' | 'choose';
  errors: readonly FieldError[];
  busy: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('auth');
  return (
    <>
      <ResetError errors={errors} />
      <form className="auth-form" noValidate onSubmit={onSubmit} aria-labelledby="reset-heading">
        <h2 id="reset-heading" className="auth-form__heading">
          {t(`reset.${step}.heading`)}
        </h2>
        <p className="auth-form__lead">{t(`reset.${step}.lead`, PASSWORD_LIMITS)}</p>
        {children}
        <SubmitActions
          className="auth-form__actions"
          label={t(`reset.${step}.submit`)}
          busyLabel={t(`reset.${step}.submitting`)}
          busy={busy}
        />
      </form>
    </>
  );
}

/** A confirmation (role="status") that takes focus so that it is read at once. */
function Done({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div ref={ref} className="form-success" role="status" tabIndex={-1}>
      {children}
    </div>
  );
}

function RequestLinkForm() {
  const { t } = useTranslation('auth');
  const location = useLocation();
  const emailState = useState('');
  const [email, setEmail] = emailState;
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  // The login page passes the address typed there.
  const carried = (location.state as ResetPasswordState | null)?.email;
  useEffect(() => {
    if (carried) setEmail(carried);
  }, [carried, setEmail]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const checked = checkForm(passwordResetRequestSchema, { email });
    if (!checked.success) return setErrors(checked.errors);
    setBusy(true);
    setErrors([]);
    try {
      await requestPasswordReset(email);
      setSentTo(checked.data.email);
    } catch (error) {
      setErrors([{ path: '', key: `auth:${resetErrorKey(error)}` }]);
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

  return (
    <>
      <ResetStep step="request" errors={errors} busy={busy} onSubmit={onSubmit}>
        <EmailField id="reset-email" state={emailState} autoComplete="email" shown={{ errors, id: ERROR_ID }} />
      </ResetStep>
      <p className="auth-card__switch">
        <Link to={AFFILIATE_LOGIN_PAGE}>{t('reset.backToLogin')}</Link>
      </p>
    </>
  );
}

const INVALID_TOKEN: FieldError[] = [{ path: '', key: 'auth:reset.choose.invalidToken' }];

function ChoosePasswordForm({ token }: { token: string }) {
  const { t } = useTranslation('auth');
  const { refresh } = useSession();
  const navigate = useNavigate();
  const passwordState = useState('');
  const confirmState = useState('');
  const [password] = passwordState;
  const [confirmPassword] = confirmState;
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [status, setStatus] = useState<'idle' | 'busy' | 'done' | 'invalid-token'>('idle');

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status === 'busy') return;
    const checked = checkForm(newPasswordSchema, { password, confirmPassword });
    if (!checked.success) return setErrors(leadingErrors(checked.errors, NEW_PASSWORD_ORDER));
    setStatus('busy');
    setErrors([]);
    try {
      await resetPassword(token, password);
      // Every session of the account was revoked, this browser's included.
      await refresh();
      setStatus('done');
    } catch (error) {
      if (error instanceof AuthError && error.code === 'invalid-token') return setStatus('invalid-token');
      setErrors([{ path: '', key: `auth:${resetErrorKey(error)}` }]);
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
        <ResetError errors={INVALID_TOKEN} />
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
  return (
    <ResetStep step="choose" errors={errors} busy={status === 'busy'} onSubmit={onSubmit}>
      <PasswordField name="password" state={passwordState} errors={errors} />
      <PasswordField name="confirmPassword" state={confirmState} errors={errors} />
    </ResetStep>
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
