import { PageMeta } from '../../components/page-meta';
import { CodePage } from '../../features/marketing/code-page';
import { MarketingPanel } from '../../features/marketing/marketing-panel';
import { useTranslation } from '../../lib/react-i18n';
import type { RouteHandle } from '../../root';
import { AFFILIATE_MARKETING_PAGE } from '@skanova/shared/affiliate/constants';

export const handle: RouteHandle = { i18n: ['marketing'] };

/** The marketing resources page (spec §2): the marketing panel of the chosen code, or how to get a first code. */
export default function AffiliateMarketing() {
  const { t } = useTranslation('marketing');
  return (
    <>
      <PageMeta
        path={AFFILIATE_MARKETING_PAGE}
        title={t('marketingPage.metaTitle')}
        description={t('marketingPage.metaDescription')}
        noindex
      />
      <CodePage
        title={t('marketingPage.title')}
        subtitle={t('marketingPage.subtitle')}
        noCodes={t('marketingPage.noCodes')}
        noCodesAction={t('marketingPage.generateCode')}
      >
        {(code) => <MarketingPanel code={code.code} link={code.link} />}
      </CodePage>
    </>
  );
}
