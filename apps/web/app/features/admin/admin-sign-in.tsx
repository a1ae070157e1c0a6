import { SignInForm } from '../../components/sign-in-form';
import { useTranslation } from '../../lib/react-i18n';

/**
 * Signing in to the console: the affiliate area's sign-in form (docs/product/messages.md#sign-in-messages: a disabled account is
 * refused), staying on /admin. The session is then read again and decides the screen.
 */
export function AdminSignIn() {
  const { t } = useTranslation('admin');
  return (
    <div className="container auth-page">
      <div className="auth-card">
        <h1>{t('signIn.title')}</h1>
        <p className="auth-card__lead">{t('signIn.lead')}</p>
        <SignInForm
          idPrefix="admin-login"
          label={t('signIn.title')}
          submitLabel={t('signIn.submit')}
          busyLabel={t('signIn.submitting')}
        />
      </div>
    </div>
  );
}
