import { Link } from 'react-router';
import { useTranslation } from '../lib/react-i18n';
import { siteConfig } from '../lib/site-config';
import './site-footer.css';

/** Footer of the affiliate area (spec §2): the affiliate terms, privacy and support, and the current year. */
export function AffiliateFooter() {
  const { t } = useTranslation('affiliate');
  const { t: tCommon } = useTranslation('common');
  return (
    <footer className="site-footer affiliate-footer">
      <div className="container affiliate-footer__inner">
        <nav aria-label={t('layout.footerLabel')}>
          <ul className="affiliate-footer__links">
            <li>
              <Link to="/affiliate/terms">{t('layout.terms')}</Link>
            </li>
            <li>
              <a href="/privacy">{t('layout.privacy')}</a>
            </li>
            <li>
              <a href="/support">{t('layout.support')}</a>
            </li>
          </ul>
        </nav>
        <p className="affiliate-footer__copyright">{tCommon('footer.copyright', { year: siteConfig.year })}</p>
      </div>
    </footer>
  );
}
