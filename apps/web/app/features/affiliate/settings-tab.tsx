import { useTranslation } from '../../lib/react-i18n';
import { useSignedInSession } from '../../lib/auth/signed-in';
import { ChangePasswordForm } from './change-password-form';
import { DeleteAccount } from './delete-account';
import { NotificationPreferencesForm } from './notification-preferences-form';

// Settings (docs/product/routes-and-screens.md#settings-tab): the account e-mail (read only), change password, notification
// preferences (saved), and account deletion behind a confirmation.

export function SettingsTab({ onAccountDeleted }: { onAccountDeleted: () => void }) {
  const { t } = useTranslation('dashboard');
  const session = useSignedInSession();
  return (
    <div className="dashboard-stack">
      <h2 className="visually-hidden">{t('tabs.settings')}</h2>
      <section className="card" aria-labelledby="dashboard-account-title">
        <h3 id="dashboard-account-title">{t('settings.account.title')}</h3>
        <div className="form form-field">
          <label htmlFor="dashboard-account-email">{t('settings.account.email')}</label>
          <input
            id="dashboard-account-email"
            type="email"
            value={session.user.email}
            disabled
            aria-describedby="dashboard-account-email-hint"
          />
          <p className="form-hint" id="dashboard-account-email-hint">
            {t('settings.account.emailHint')}
          </p>
        </div>
      </section>
      <ChangePasswordForm />
      <NotificationPreferencesForm />
      <DeleteAccount onDeleted={onAccountDeleted} />
    </div>
  );
}
