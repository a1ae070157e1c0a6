import { Suspense, lazy } from 'react';
import { useLocation } from 'react-router';
import { AFFILIATE_LOGIN_PAGE, AFFILIATE_RESET_PASSWORD_PAGE } from '@skanova/shared/affiliate/constants';
import { PageMeta } from '../../components/page-meta';
import { useRedirectIfSignedIn } from '../../lib/auth/session';
import { useTranslation } from '../../lib/react-i18n';
import type { RouteHandle } from '../../lib/route-handle';
import '../../components/auth-form.css';

export const handle: RouteHandle = { i18n: ['auth'] };

// The two ways into an account, one module for both routes (routes.ts): the login page, and "forgot
// password" (request a link by e-mail, then, with the link's token, choose a new password). Their
// forms load beside the page (see signup.tsx); the buttons wait for them.
const loginChunk = () => import('../../features/auth/login-form');
const resetChunk = () => import('../../features/auth/reset-password-form');
const LoginForm = lazy(loginChunk);
const ResetPasswordForm = lazy(resetChunk);
if (typeof document !== 'undefined') {
  void (window.location.pathname.startsWith(AFFILIATE_RESET_PASSWORD_PAGE) ? resetChunk() : loginChunk());
}

export default function AccountAccessPage() {
  return useLocation().pathname.startsWith(AFFILIATE_RESET_PASSWORD_PAGE) ? <ResetPasswordPage /> : <LoginPage />;
}

function LoginPage() {
  const { t } = useTranslation('auth');
  useRedirectIfSignedIn();
  return (
    <AccessCard page="login" lead={t('login.lead')}>
      <LoginForm />
    </AccessCard>
  );
}

function ResetPasswordPage() {
  return (
    <AccessCard page="reset">
      <ResetPasswordForm />
    </AccessCard>
  );
}

function AccessCard({ page, lead, children }: { page: 'login' | 'reset'; lead?: string; children: React.ReactNode }) {
  const { t } = useTranslation('auth');
  return (
    <div className="container auth-page">
      <PageMeta
        path={page === 'login' ? AFFILIATE_LOGIN_PAGE : AFFILIATE_RESET_PASSWORD_PAGE}
        title={t(`${page}.meta.title`)}
        description={t(`${page}.meta.description`)}
        noindex
      />
      <div className="auth-card">
        <h1>{t(`${page}.title`)}</h1>
        {lead ? <p className="auth-card__lead">{lead}</p> : null}
        <Suspense fallback={null}>{children}</Suspense>
      </div>
    </div>
  );
}
