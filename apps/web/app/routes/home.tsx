import { useTranslation } from 'react-i18next';
import { PageMeta } from '../components/page-meta';
import type { RouteHandle } from '../root';

export const handle: RouteHandle = { i18n: ['home'] };

export default function Home() {
  const { t } = useTranslation('home');
  return (
    <section className="container">
      <PageMeta path="/" title={t('meta.title')} description={t('meta.description')} />
      <h1>{t('hero.title')}</h1>
    </section>
  );
}
