import { AFFILIATE_DASHBOARD_PAGE } from '@skanova/shared/affiliate/constants';
import { PageMeta } from '../../components/page-meta';
import { DashboardPage } from '../../features/affiliate/dashboard-page';
import { useTranslation } from '../../lib/react-i18n';
import type { RouteHandle } from '../../lib/route-handle';

// 'marketing': the Links tab shows the referral QR panel of the first code.
export const handle: RouteHandle = { i18n: ['dashboard', 'payment', 'marketing'] };

/** The affiliate dashboard (docs/product/routes-and-screens.md#protected-pages): shown by the protected layout once the session is known. */
export default function AffiliateDashboard() {
  const { t } = useTranslation('dashboard');
  return (
    <>
      <PageMeta path={AFFILIATE_DASHBOARD_PAGE} title={t('meta.title')} description={t('meta.description')} noindex />
      <DashboardPage />
    </>
  );
}
