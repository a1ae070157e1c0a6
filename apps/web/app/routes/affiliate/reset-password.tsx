import { lazy } from 'react';
import { AuthPage } from '../../components/auth-page';
import type { RouteHandle } from '../../root';
import '../../components/auth-form.css';

export const handle: RouteHandle = { i18n: ['auth'] };

// The forms load beside the page (see signup.tsx).
const formChunk = () => import('../../features/affiliate-auth/reset-password-form');
const ResetPasswordForm = lazy(formChunk);
if (typeof document !== 'undefined') void formChunk();

/** Forgot password: request a link by e-mail, then (with the link's token) choose a new password. */
export default function AffiliateResetPassword() {
  return (
    <AuthPage path="/affiliate/reset-password" page="reset" noindex>
      <ResetPasswordForm />
    </AuthPage>
  );
}
