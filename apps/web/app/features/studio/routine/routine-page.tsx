import { STUDIO_ROUTINE_PAGE } from '@skanova/shared/studio/constants';
import { PageMeta } from '../../../components/page-meta';
import { useTranslation } from '../../../lib/react-i18n';
import { ConsentedOnly } from '../use-consent';

/** The morning and evening routine. */
export function RoutinePage() {
  const { t } = useTranslation('studio');
  return (
    <div className="container studio-page">
      <PageMeta
        path={STUDIO_ROUTINE_PAGE}
        title={t('meta.routineTitle')}
        description={t('meta.homeDescription')}
        noindex
      />
      <ConsentedOnly>
        <h1>{t('layout.nav.routine')}</h1>
      </ConsentedOnly>
    </div>
  );
}
