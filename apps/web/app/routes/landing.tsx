import { useTranslation } from '../lib/react-i18n';
import { PageMeta } from '../components/page-meta';
import { LandingPage } from '../features/landing/landing-page';
import type { RouteHandle } from '../lib/route-handle';

export const handle: RouteHandle = { i18n: ['landing'] };

/** The referral and download landing (docs/product/routes-and-screens.md#referral-landing): one page for /download, /ref/CODE and /app/TYPE[/CODE]. */
export default function Landing() {
  const { t } = useTranslation('landing');
  return (
    <>
      <PageMeta path="/download" title={t('meta.title')} description={t('meta.description')} noindex />
      <LandingPage />
    </>
  );
}
