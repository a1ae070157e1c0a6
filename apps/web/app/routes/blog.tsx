import { useTranslation } from 'react-i18next';
import { PageMeta } from '../components/page-meta';

export default function Page() {
  const { t } = useTranslation();
  return (
    <section className="container">
      <PageMeta path="/blog" title={t('nav.home')} description={t('brandTagline')} />
      <h1>blog</h1>
    </section>
  );
}
