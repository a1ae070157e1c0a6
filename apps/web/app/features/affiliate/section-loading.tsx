import { useTranslation } from '../../lib/react-i18n';

/** Spinner of a section whose data is on its way. */
export function SectionLoading() {
  const { t } = useTranslation('common');
  return (
    <div className="dashboard-loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{t('loading')}</span>
    </div>
  );
}
