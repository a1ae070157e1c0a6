import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { siteConfig } from '../lib/site-config';
import { LanguageToggle } from './language-toggle';

export function PublicHeader() {
  const { t } = useTranslation();
  return (
    <header className="site-header">
      <a className="skip-link" href="#main">{t('skipToContent')}</a>
      <Link to="/" className="site-header__brand">{siteConfig.brandName}</Link>
      <nav aria-label={t('nav.label')}>
        <Link to="/terms">{t('nav.terms')}</Link>
      </nav>
      <LanguageToggle />
      <a href={siteConfig.webAppUrl} className="button button--primary">{t('nav.app')}</a>
    </header>
  );
}
