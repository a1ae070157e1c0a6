import { useNavigate } from 'react-router';
import { AFFILIATE_LOGIN_PAGE } from '@skanova/shared/affiliate/constants';
import { AccountHeader } from '../../components/account-header';
import { useSignedInSession } from '../../lib/auth/signed-in';
import { useTranslation } from '../../lib/react-i18n';
import { useAffiliateSettings } from './queries';

/** Welcome title, the signed-in e-mail and logout (docs/product/routes-and-screens.md#affiliate-login: "signs out and goes to login"). */
export function DashboardHeader() {
  const { t } = useTranslation('dashboard');
  const session = useSignedInSession();
  const navigate = useNavigate();
  const firstName = useAffiliateSettings().data?.firstName;
  return (
    <AccountHeader
      title={firstName ? t('header.welcomeNamed', { name: firstName }) : t('header.welcome')}
      who={t('header.signedInAs', { email: session.user.email })}
      signOutLabel={t('header.logout')}
      signingOutLabel={t('header.loggingOut')}
      signOutFailed={t('header.logoutFailed')}
      afterSignOut={() => navigate(AFFILIATE_LOGIN_PAGE, { replace: true })}
    />
  );
}
