import { useState } from 'react';
import { useTranslation } from '../../lib/react-i18n';
import { useLogout, useSignedInSession } from '../../lib/auth/session';
import { useAffiliateSettings } from './queries';

/** Welcome title, the signed-in e-mail and logout (spec §2: "signs out and goes to login"). */
export function DashboardHeader() {
  const { t } = useTranslation('dashboard');
  const session = useSignedInSession();
  const logout = useLogout();
  const settings = useAffiliateSettings();
  const [status, setStatus] = useState<'idle' | 'busy' | 'failed'>('idle');
  const firstName = settings.data?.firstName;

  async function onLogout() {
    setStatus('busy');
    try {
      await logout();
    } catch (error) {
      // The session survived: saying "logged out" would be untrue.
      console.warn('sign-out failed', error);
      setStatus('failed');
    }
  }

  return (
    <header className="dashboard-header">
      <div>
        <h1>{firstName ? t('header.welcomeNamed', { name: firstName }) : t('header.welcome')}</h1>
        <p className="dashboard-header__email">{t('header.signedInAs', { email: session.user.email })}</p>
      </div>
      <div className="dashboard-header__actions">
        <button
          type="button"
          className="button button--secondary"
          onClick={() => void onLogout()}
          disabled={status === 'busy'}
        >
          {status === 'busy' ? t('header.loggingOut') : t('header.logout')}
        </button>
        {status === 'failed' ? (
          <p className="field-error" role="alert">
            {t('header.logoutFailed')}
          </p>
        ) : null}
      </div>
    </header>
  );
}
