import { useTranslation } from 'react-i18next';
import { siteConfig } from '../lib/site-config';

export function PublicFooter() {
  const { t } = useTranslation();
  return (
    <footer className="site-footer">
      <p>{t('footer.copyright', { year: siteConfig.year })}</p>
    </footer>
  );
}
