import { lazy } from 'react';
import { AuthPage } from '../../components/auth-page';
import { useRedirectIfSignedIn } from '../../lib/auth/session';
import type { RouteHandle } from '../../root';
import '../../components/auth-form.css';

export const handle: RouteHandle = { i18n: ['auth'] };

// The form loads beside the page (see signup.tsx); its buttons wait for it.
const formChunk = () => import('../../features/affiliate-auth/login-form');
const LoginForm = lazy(formChunk);
if (typeof document !== 'undefined') void formChunk();

export default function AffiliateLogin() {
  useRedirectIfSignedIn();
  return (
    <AuthPage path="/affiliate/login" page="login" lead noindex>
      <LoginForm />
    </AuthPage>
  );
}
