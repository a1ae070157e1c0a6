import { STUDIO_CONSULTATION_PAGE } from '@skanova/shared/studio/constants';
import { PageMeta } from '../../../components/page-meta';
import { useTranslation } from '../../../lib/react-i18n';
import { ConsentedOnly } from '../use-consent';

/** The consultation: the profile and questions answered from the results. */
export function ConsultationPage() {
  const { t } = useTranslation('studio');
  return (
    <div className="container studio-page">
      <PageMeta
        path={STUDIO_CONSULTATION_PAGE}
        title={t('meta.consultationTitle')}
        description={t('meta.homeDescription')}
        noindex
      />
      <ConsentedOnly>
        <h1>{t('layout.nav.consultation')}</h1>
      </ConsentedOnly>
    </div>
  );
}
