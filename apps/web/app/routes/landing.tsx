import { useTranslation } from 'react-i18next';
import { PageMeta } from '../components/page-meta';

export default function Landing() {
  const { t } = useTranslation();
  return (
    <main className="container">
      <PageMeta path="/download" title={t('nav.app')} description={t('brandTagline')} noindex />
      <h1>download</h1>
    </main>
  );
}
