import { Suspense, lazy } from 'react';
import { PageMeta } from '../../components/page-meta';
import { useRedirectIfSignedIn } from '../../lib/auth/session';
import { useTranslation } from '../../lib/react-i18n';
import type { RouteHandle } from '../../root';
import '../../components/auth-form.css';

export const handle: RouteHandle = { i18n: ['auth'] };

// The form loads beside the page (see signup.tsx); its buttons wait for it.
const formChunk = () => import('../../features/affiliate-auth/login-form');
const LoginForm = lazy(formChunk);
if (typeof document !== 'undefined') void formChunk();

export default function AffiliateLogin() {
  const { t } = useTranslation('auth');
  useRedirectIfSignedIn();
  return (
    <div className="container auth-page">
      <PageMeta
        path="/affiliate/login"
        title={t('login.meta.title')}
        description={t('login.meta.description')}
        noindex
      />
      <div className="auth-card">
        <h1>{t('login.title')}</h1>
        <p className="auth-card__lead">{t('login.lead')}</p>
        <Suspense fallback={null}>
          <LoginForm />
        </Suspense>
      </div>
    </div>
  );
}
