import { Suspense, lazy } from 'react';
import { PageMeta } from '../../components/page-meta';
import { useTranslation } from '../../lib/react-i18n';
import type { RouteHandle } from '../../root';
import '../../components/auth-form.css';

export const handle: RouteHandle = { i18n: ['auth'] };

// The forms load beside the page (see signup.tsx).
const formChunk = () => import('../../features/affiliate-auth/reset-password-form');
const ResetPasswordForm = lazy(formChunk);
if (typeof document !== 'undefined') void formChunk();

/** Forgot password: request a link by e-mail, then (with the link's token) choose a new password. */
export default function AffiliateResetPassword() {
  const { t } = useTranslation('auth');
  return (
    <div className="container auth-page">
      <PageMeta
        path="/affiliate/reset-password"
        title={t('reset.meta.title')}
        description={t('reset.meta.description')}
        noindex
      />
      <div className="auth-card">
        <h1>{t('reset.title')}</h1>
        <Suspense fallback={null}>
          <ResetPasswordForm />
        </Suspense>
      </div>
    </div>
  );
}
