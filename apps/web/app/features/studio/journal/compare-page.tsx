import { STUDIO_COMPARE_PAGE } from '@skanova/shared/studio/constants';
import { PageMeta } from '../../../components/page-meta';
import { useTranslation } from '../../../lib/react-i18n';
import { ConsentedOnly } from '../use-consent';

/** Two saved scans side by side. */
export function ComparePage() {
  const { t } = useTranslation('studio');
  return (
    <div className="container studio-page">
      <PageMeta
        path={STUDIO_COMPARE_PAGE}
        title={t('meta.compareTitle')}
        description={t('meta.homeDescription')}
        noindex
      />
      <ConsentedOnly>
        <h1>{t('layout.nav.journal')}</h1>
      </ConsentedOnly>
    </div>
  );
}
