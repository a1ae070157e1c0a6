import { Suspense, lazy } from 'react';
import { ADMIN_PAGE } from '@skanova/shared/admin/pages';
import { PageMeta } from '../components/page-meta';
import { useTranslation } from '../lib/react-i18n';
import type { RouteHandle } from '../lib/route-handle';
import '../components/auth-form.css';
import '../components/site-footer.css';
import '../components/site-header.css';
import '../features/admin/admin.css';

// 'auth': the sign-in form's fields and messages; 'payment' and 'support': method and subject labels;
// 'webhooks': the Webhooks tab.
// 'affiliate': a reward rule and a commission's pricing in words (lib/reward-words.ts).
export const handle: RouteHandle = { i18n: ['admin', 'auth', 'payment', 'support', 'webhooks', 'affiliate'] };

// The console is one chunk requested at once and hydrated when it arrives (the prerendered HTML
// already shows its loading state): the route itself stays small, because every route's list of
// imports is part of the manifest that every public page loads within its budget (ADR 005).
const screenChunk = () => import('../features/admin/admin-screen');
const AdminScreen = lazy(screenChunk);
if (typeof document !== 'undefined') void screenChunk();

/**
 * The operator console (docs/product/routes-and-screens.md#operator-console). Prerendered as its loading state, titled and never indexed;
 * in the browser, the session decides between the sign-in form, "operators only" and the console.
 */
export default function Admin() {
  const { t } = useTranslation('admin');
  return (
    <>
      <PageMeta path={ADMIN_PAGE} title={t('meta.title')} description={t('meta.description')} noindex />
      <Suspense fallback={null}>
        <AdminScreen />
      </Suspense>
    </>
  );
}
