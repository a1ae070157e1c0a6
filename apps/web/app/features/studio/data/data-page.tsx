import { STUDIO_DATA_PAGE } from '@skanova/shared/studio/constants';
import { PageMeta } from '../../../components/page-meta';
import { useTranslation } from '../../../lib/react-i18n';
import { ConsentedOnly } from '../use-consent';

/** The visitor's data: export, import, delete everything. */
export function DataPage() {
  const { t } = useTranslation('studio');
  return (
    <div className="container studio-page">
      <PageMeta path={STUDIO_DATA_PAGE} title={t('meta.dataTitle')} description={t('meta.homeDescription')} noindex />
      <ConsentedOnly>
        <h1>{t('layout.nav.data')}</h1>
      </ConsentedOnly>
    </div>
  );
}
