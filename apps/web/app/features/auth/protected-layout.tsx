import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { AFFILIATE_LOGIN_PAGE } from '@skanova/shared/affiliate/constants';
import { useTranslation } from '../../lib/react-i18n';
import { siteConfig } from '../../lib/site-config';
import { useSession } from '../../lib/auth/session';

// Protected affiliate pages (docs/product/routes-and-screens.md#protected-pages): a spinner while the session loads, the page when signed in,
// a redirect to the login page when signed out. Server state of these pages goes through TanStack
// Query (docs/product/rules-and-constants.md#accounts-and-sessions), whose client lives here so the public pages never load it.

export default function ProtectedLayout() {
  const { state } = useSession();
  const navigate = useNavigate();
  const { t } = useTranslation('common');
  const [queryClient] = useState(
    () =>
      new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } } }),
  );
  useEffect(() => {
    if (state.status === 'signed-out') void navigate(AFFILIATE_LOGIN_PAGE, { replace: true });
  }, [state.status, navigate]);
  useEffect(() => {
    if (state.status === 'signed-out') queryClient.clear();
  }, [state.status, queryClient]);

  if (state.status !== 'signed-in') {
    return (
      <div className="page-loading" role="status" aria-live="polite">
        {/* The prerendered file of a protected page is this state: titled, and never indexed. */}
        <title>{`${t('loading')} – ${siteConfig.brandName}`}</title>
        <meta name="robots" content="noindex, nofollow" />
        <span className="spinner" aria-hidden="true" />
        <span className="visually-hidden">{t('loading')}</span>
      </div>
    );
  }
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
