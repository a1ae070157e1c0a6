import { lazy } from 'react';
import { AuthPage } from '../../components/auth-page';
import { useRedirectIfSignedIn } from '../../lib/auth/session';
import type { RouteHandle } from '../../root';
import '../../components/auth-form.css';
import '../../features/affiliate-auth/signup-form.css';
import '../../components/payment-method-fields.css';

export const handle: RouteHandle = { i18n: ['auth', 'payment'] };

// The form, its validation and the payment fields load beside the page, not in its first-load
// JavaScript: the prerendered form shows at once and works when its chunk arrives (its buttons are
// disabled until then).
const formChunk = () => import('../../features/affiliate-auth/signup-form');
const SignupForm = lazy(formChunk);
if (typeof document !== 'undefined') void formChunk();

export default function AffiliateSignup() {
  useRedirectIfSignedIn();
  return (
    <AuthPage path="/affiliate/signup" page="signup" lead wide>
      <SignupForm />
    </AuthPage>
  );
}
