import { Suspense, lazy } from 'react';
import { PageMeta } from '../../components/page-meta';
import { useRedirectIfSignedIn } from '../../lib/auth/session';
import { useTranslation } from '../../lib/react-i18n';
import type { RouteHandle } from '../../lib/route-handle';
import '../../components/auth-form.css';
import '../../features/auth/signup-form.css';
import '../../components/payment-method-fields.css';

export const handle: RouteHandle = { i18n: ['auth', 'payment'] };

// The form, its validation and the payment fields load beside the page, not in its first-load
// JavaScript: the prerendered form shows at once and works when its chunk arrives (its buttons are
// disabled until then).
const formChunk = () => import('../../features/auth/signup-form');
const SignupForm = lazy(formChunk);
if (typeof document !== 'undefined') void formChunk();

export default function AffiliateSignup() {
  const { t } = useTranslation('auth');
  useRedirectIfSignedIn();
  return (
    <div className="container auth-page">
      <PageMeta path="/affiliate/signup" title={t('signup.meta.title')} description={t('signup.meta.description')} />
      <div className="auth-card auth-card--wide">
        <h1>{t('signup.title')}</h1>
        <p className="auth-card__lead">{t('signup.lead')}</p>
        <Suspense fallback={null}>
          <SignupForm />
        </Suspense>
      </div>
    </div>
  );
}
