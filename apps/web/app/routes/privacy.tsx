import { useTranslation } from 'react-i18next';
import { PageMeta } from '../components/page-meta';

export default function Page() {
  const { t } = useTranslation();
  return (
    <section className="container">
      <PageMeta path="/privacy" title={t('nav.home')} description={t('brandTagline')} />
      <h1>privacy</h1>
    </section>
  );
}
