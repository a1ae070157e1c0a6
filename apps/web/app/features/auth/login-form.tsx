import { Link, useNavigate } from 'react-router';
import { AFFILIATE_DASHBOARD_PAGE, AFFILIATE_RESET_PASSWORD_PAGE } from '@skanova/shared/affiliate/constants';
import { SignInForm } from '../../components/sign-in-form';
import { useTranslation } from '../../lib/react-i18n';

/** What the login page hands to the reset page: the address typed so far. */
export interface ResetPasswordState {
  email?: string;
}

/**
 * Affiliate login (docs/product/routes-and-screens.md#affiliate-login): the sign-in form (docs/product/messages.md#sign-in-messages catalogue); success opens the dashboard.
 * "Forgot password?" carries the typed address to the reset page.
 */
export default function LoginForm() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  return (
    <div className="login">
      <SignInForm
        idPrefix="login"
        label={t('login.title')}
        submitLabel={t('login.submit')}
        busyLabel={t('login.submitting')}
        onSignedIn={() => navigate(AFFILIATE_DASHBOARD_PAGE, { replace: true })}
        actions={({ email, ready }) => {
          const state: ResetPasswordState = email.trim() ? { email: email.trim() } : {};
          return (
            <button
              type="button"
              className="button button--ghost"
              disabled={!ready}
              onClick={() => void navigate(AFFILIATE_RESET_PASSWORD_PAGE, { state })}
            >
              {t('login.forgot')}
            </button>
          );
        }}
      />
      <p className="auth-card__switch">
        {t('login.noAccount')} <Link to="/affiliate/signup">{t('login.signup')}</Link>
      </p>
      <p className="auth-card__switch">
        <Link to="/affiliate">{t('login.back')}</Link>
      </p>
    </div>
  );
}
