import { type FormEvent, useState } from 'react';
import { PASSWORD_MAX_LENGTH } from '@skanova/shared/affiliate/constants';
import { PASSWORD_MIN_LENGTH } from '@skanova/shared/affiliate/programme';
import { useTranslation } from '../../lib/react-i18n';
import { AuthError, changePassword } from '../../lib/auth/auth-client';
import { useSignedInSession } from '../../lib/auth/signed-in';

// Change password (BRIEF §5.9: the current password is required). The auth library checks the
// current one and signs the other sessions out; its codes become our own messages.

export interface PasswordChange {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

const EMPTY: PasswordChange = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** The key (under settings.password.errors) of what is wrong with the form, or null. */
export function passwordChangeError(values: PasswordChange): string | null {
  if (!values.currentPassword || !values.newPassword || !values.confirmPassword) return 'required';
  if (values.newPassword.length < PASSWORD_MIN_LENGTH) return 'tooShort';
  if (values.newPassword.length > PASSWORD_MAX_LENGTH) return 'tooLong';
  if (values.newPassword !== values.confirmPassword) return 'mismatch';
  return null;
}

function serverErrorKey(error: unknown): string {
  if (!(error instanceof AuthError)) return 'generic';
  switch (error.code) {
    case 'wrong-password':
      return 'wrongCurrent';
    case 'too-many-requests':
      return 'tooMany';
    case 'weak-password':
      return 'tooShort';
    default:
      return 'generic';
  }
}

type Status = { kind: 'idle' | 'busy' | 'success' } | { kind: 'error'; key: string };

export function ChangePasswordForm() {
  const { t } = useTranslation('dashboard');
  const session = useSignedInSession();
  const [values, setValues] = useState<PasswordChange>(EMPTY);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const busy = status.kind === 'busy';
  const limits = { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH };

  function set(field: keyof PasswordChange, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    if (status.kind !== 'busy') setStatus({ kind: 'idle' });
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const invalid = passwordChangeError(values);
    if (invalid) {
      setStatus({ kind: 'error', key: invalid });
      return;
    }
    setStatus({ kind: 'busy' });
    try {
      await changePassword(values.currentPassword, values.newPassword);
      setValues(EMPTY);
      setStatus({ kind: 'success' });
    } catch (error) {
      setStatus({ kind: 'error', key: serverErrorKey(error) });
    }
  }

  const field = (name: keyof PasswordChange, autoComplete: string) => (
    <div className="form-field">
      <label htmlFor={`dashboard-${name}`}>{t(`settings.password.${name}`)}</label>
      <input
        id={`dashboard-${name}`}
        name={name}
        type="password"
        value={values[name]}
        onChange={(event) => set(name, event.target.value)}
        autoComplete={autoComplete}
        required
        aria-required="true"
        aria-describedby={name === 'newPassword' ? 'dashboard-newPassword-hint' : undefined}
        maxLength={PASSWORD_MAX_LENGTH}
        disabled={busy}
      />
      {name === 'newPassword' ? (
        <p className="form-hint" id="dashboard-newPassword-hint">
          {t('settings.password.hint', limits)}
        </p>
      ) : null}
    </div>
  );

  return (
    <section className="card" aria-labelledby="dashboard-password-title">
      <h3 id="dashboard-password-title">{t('settings.password.title')}</h3>
      <form className="form" onSubmit={(event) => void onSubmit(event)} noValidate>
        {/* Tells password managers which account the new password belongs to. */}
        <input
          type="text"
          name="username"
          autoComplete="username"
          value={session.user.email}
          readOnly
          style={{ display: 'none' }}
        />
        {field('currentPassword', 'current-password')}
        <div className="form-row">
          {field('newPassword', 'new-password')}
          {field('confirmPassword', 'new-password')}
        </div>
        {status.kind === 'error' ? (
          <p className="form-error" role="alert">
            {t(`settings.password.errors.${status.key}`, limits)}
          </p>
        ) : null}
        <div role="status">
          {status.kind === 'success' ? <p className="form-success">{t('settings.password.success')}</p> : null}
        </div>
        <div className="form-actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? t('settings.password.busy') : t('settings.password.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
