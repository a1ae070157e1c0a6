import { STUDIO_JOURNAL_PAGE } from '@skanova/shared/studio/constants';
import { PageMeta } from '../../../components/page-meta';
import { useTranslation } from '../../../lib/react-i18n';
import { ConsentedOnly } from '../use-consent';

/** The journal: every saved scan on a timeline, trends, the next scan's date. */
export function JournalPage() {
  const { t } = useTranslation('studio');
  return (
    <div className="container studio-page">
      <PageMeta
        path={STUDIO_JOURNAL_PAGE}
        title={t('meta.journalTitle')}
        description={t('meta.homeDescription')}
        noindex
      />
      <ConsentedOnly>
        <h1>{t('layout.nav.journal')}</h1>
      </ConsentedOnly>
    </div>
  );
}
