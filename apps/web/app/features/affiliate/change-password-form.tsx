import { type FormEvent, useState } from 'react';
import { PASSWORD_MAX_LENGTH } from '@skanova/shared/affiliate/constants';
import { PASSWORD_MIN_LENGTH } from '@skanova/shared/affiliate/programme';
import { type PasswordChange, changePasswordSchema } from '@skanova/shared/affiliate/schemas';
import { checkForm } from '@skanova/shared/callable/field-errors';
import { useTranslation } from '../../lib/react-i18n';
import { AuthError, changePassword } from '../../lib/auth/auth-client';
import { useSignedInSession } from '../../lib/auth/signed-in';
import { type FieldError, fieldAria, fieldErrorText, leadingErrors } from '../../lib/form-errors';
import { SubmitActions } from '../../components/form-parts';

// Change password (docs/product/routes-and-screens.md#settings-tab: the current password is required), checked by the shared
// `changePasswordSchema`. The auth library checks the current one and signs the other sessions
// out; its codes become our own messages, in the same field-error shape.

export type { PasswordChange };

const EMPTY: PasswordChange = { currentPassword: '', newPassword: '', confirmPassword: '' };

const ERRORS = 'dashboard:settings.password.errors';
/** Which message shows first: a missing field, then the new password, then its confirmation. */
const MESSAGE_ORDER = [`${ERRORS}.required`, 'newPassword', 'confirmPassword'];
const ERROR_ID = 'dashboard-password-error';

/** What is wrong with the form (the errors it shows), or none. */
export function passwordChangeErrors(values: PasswordChange): FieldError[] {
  const checked = checkForm(changePasswordSchema, values);
  return checked.success ? [] : leadingErrors(checked.errors, MESSAGE_ORDER);
}

function serverErrors(error: unknown): FieldError[] {
  const code = error instanceof AuthError ? error.code : 'unknown';
  if (code === 'wrong-password') return [{ path: 'currentPassword', key: `${ERRORS}.wrongCurrent` }];
  if (code === 'weak-password') return [{ path: 'newPassword', key: `${ERRORS}.tooShort` }];
  return [{ path: '', key: `${ERRORS}.${code === 'too-many-requests' ? 'tooMany' : 'generic'}` }];
}

type Status = { kind: 'idle' | 'busy' | 'success' } | { kind: 'error'; errors: FieldError[] };

export function ChangePasswordForm() {
  const { t } = useTranslation('dashboard');
  const session = useSignedInSession();
  const [values, setValues] = useState<PasswordChange>(EMPTY);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const busy = status.kind === 'busy';
  const limits = { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH };
  const errors = status.kind === 'error' ? status.errors : [];

  function set(field: keyof PasswordChange, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    if (status.kind !== 'busy') setStatus({ kind: 'idle' });
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const errors = passwordChangeErrors(values);
    if (errors.length > 0) {
      setStatus({ kind: 'error', errors });
      return;
    }
    setStatus({ kind: 'busy' });
    try {
      await changePassword(values.currentPassword, values.newPassword);
      setValues(EMPTY);
      setStatus({ kind: 'success' });
    } catch (error) {
      setStatus({ kind: 'error', errors: serverErrors(error) });
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
        {...fieldAria(errors, name, ERROR_ID, name === 'newPassword' ? 'dashboard-newPassword-hint' : undefined)}
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
        <div className="columns form-row">
          {field('newPassword', 'new-password')}
          {field('confirmPassword', 'new-password')}
        </div>
        {errors[0] ? (
          <p id={ERROR_ID} className="form-error" role="alert">
            {fieldErrorText(t, errors[0], errors, limits)}
          </p>
        ) : null}
        <div role="status">
          {status.kind === 'success' ? <p className="form-success">{t('settings.password.success')}</p> : null}
        </div>
        <SubmitActions label={t('settings.password.submit')} busyLabel={t('settings.password.busy')} busy={busy} />
      </form>
    </section>
  );
}
