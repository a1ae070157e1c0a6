import { useNavigate } from 'react-router';
import { AFFILIATE_LOGIN_PAGE } from '@skanova/shared/constants/affiliate';
import { useSignOut, useSignedInSession } from '../../lib/auth/signed-in';
import { useTranslation } from '../../lib/react-i18n';
import { useAffiliateSettings } from './queries';

/** Welcome title, the signed-in e-mail and logout (spec §2: "signs out and goes to login"). */
export function DashboardHeader() {
  const { t } = useTranslation('dashboard');
  const session = useSignedInSession();
  const navigate = useNavigate();
  const { signOut, busy, failed } = useSignOut(() => navigate(AFFILIATE_LOGIN_PAGE, { replace: true }));
  const settings = useAffiliateSettings();
  const firstName = settings.data?.firstName;

  return (
    <header className="dashboard-header">
      <div>
        <h1>{firstName ? t('header.welcomeNamed', { name: firstName }) : t('header.welcome')}</h1>
        <p className="dashboard-header__email">{t('header.signedInAs', { email: session.user.email })}</p>
      </div>
      <div className="dashboard-header__actions">
        <button type="button" className="button button--secondary" onClick={() => void signOut()} disabled={busy}>
          {busy ? t('header.loggingOut') : t('header.logout')}
        </button>
        {failed ? (
          <p className="field-error" role="alert">
            {t('header.logoutFailed')}
          </p>
        ) : null}
      </div>
    </header>
  );
}
