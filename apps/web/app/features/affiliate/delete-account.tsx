import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { PASSWORD_MAX_LENGTH } from '@skanova/shared/affiliate/constants';
import { MINIMUM_PAYOUT_CENTS } from '@skanova/shared/affiliate/programme';
import { CallableClientError, callFunction } from '../../lib/callable';
import { useTranslation } from '../../lib/react-i18n';
import { formatMoney } from '../../lib/format';
import { type FieldError, callFieldErrors, fieldAria, fieldErrorText } from '../../lib/form-errors';

// Account deletion (docs/product/money.md#disabled-and-deleted-accounts) in a danger zone: a warning, then a confirmation step that asks
// for the password. The server refuses while a payout is scheduled or an approved balance of at
// least the payout minimum is owed, and says which: the page repeats it in the affiliate's language.

/** Detail codes of deleteAffiliateAccount → keys under settings.delete.errors. */
const ERROR_KEYS: Record<string, string> = {
  'payout-scheduled': 'payoutScheduled',
  'balance-due': 'balanceDue',
  'wrong-password': 'wrongPassword',
  'too-many-requests': 'tooMany',
  'resource-exhausted': 'tooMany',
};

export function deleteErrorKey(error: unknown): string {
  return (error instanceof CallableClientError && ERROR_KEYS[error.code]) || 'generic';
}

/** A refusal as the form shows it: its field errors (a wrong password), else its code's message. */
function deleteErrors(error: unknown): FieldError[] {
  const fields = callFieldErrors(error);
  return fields.length > 0 ? fields : [{ path: '', key: `dashboard:settings.delete.errors.${deleteErrorKey(error)}` }];
}

const ERROR_ID = 'dashboard-delete-error';

export function DeleteAccount({ onDeleted }: { onDeleted: () => void }) {
  const { t, i18n } = useTranslation('dashboard');
  const [confirming, setConfirming] = useState(false);
  const [password, setPassword] = useState('');
  const startButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  const remove = useMutation({
    mutationFn: (confirmation: string) => callFunction('deleteAffiliateAccount', { password: confirmation }),
    onSuccess: onDeleted,
  });

  // Cancelling puts the focus back where the affiliate was before the confirmation step.
  useEffect(() => {
    if (confirming || !returnFocus.current) return;
    returnFocus.current = false;
    startButton.current?.focus();
  }, [confirming]);

  function cancel() {
    returnFocus.current = true;
    setConfirming(false);
    setPassword('');
    remove.reset();
  }

  const errors = remove.isError ? deleteErrors(remove.error) : [];

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!password || remove.isPending) return;
    remove.mutate(password);
  }

  return (
    <section className="card dashboard-danger" aria-labelledby="dashboard-danger-title">
      <h3 id="dashboard-danger-title">{t('settings.delete.title')}</h3>
      <p className="dashboard-warning">{t('settings.delete.warning')}</p>
      <p>{t('settings.delete.conditions', { minimum: formatMoney(MINIMUM_PAYOUT_CENTS, i18n.language) })}</p>
      {confirming ? (
        <form className="form" onSubmit={onSubmit} noValidate aria-labelledby="dashboard-delete-confirm-title">
          <h4 id="dashboard-delete-confirm-title">{t('settings.delete.confirmTitle')}</h4>
          <div className="form-field">
            <label htmlFor="dashboard-delete-password">{t('settings.delete.password')}</label>
            <input
              id="dashboard-delete-password"
              type="password"
              value={password}
              onChange={(event) => {
                setPassword(event.target.value);
                remove.reset();
              }}
              autoComplete="current-password"
              required
              aria-required="true"
              maxLength={PASSWORD_MAX_LENGTH}
              disabled={remove.isPending}
              {...fieldAria(errors, 'password', ERROR_ID)}
              // The step was opened on purpose: its only field takes the focus.
              autoFocus
            />
          </div>
          {errors[0] ? (
            <p id={ERROR_ID} className="form-error" role="alert">
              {fieldErrorText(t, errors[0], errors, { minimum: formatMoney(MINIMUM_PAYOUT_CENTS, i18n.language) })}
            </p>
          ) : null}
          <div className="form-actions">
            <button type="submit" className="button button--danger" disabled={!password || remove.isPending}>
              {remove.isPending ? t('settings.delete.busy') : t('settings.delete.confirm')}
            </button>
            <button type="button" className="button button--ghost" onClick={cancel} disabled={remove.isPending}>
              {t('settings.delete.cancel')}
            </button>
          </div>
        </form>
      ) : (
        <div className="form-actions">
          <button ref={startButton} type="button" className="button button--danger" onClick={() => setConfirming(true)}>
            {t('settings.delete.start')}
          </button>
        </div>
      )}
    </section>
  );
}
