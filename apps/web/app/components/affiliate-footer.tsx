import { Link } from 'react-router';
import { useTranslation } from '../lib/react-i18n';
import { SlimFooter } from './slim-footer';

/** Footer of the affiliate area (docs/product/routes-and-screens.md#affiliate-layout): the affiliate terms, privacy and support, and the current year. */
export function AffiliateFooter() {
  const { t } = useTranslation('affiliate');
  return (
    <SlimFooter className="affiliate-footer" label={t('layout.footerLabel')}>
      <li>
        <Link to="/affiliate/terms">{t('layout.terms')}</Link>
      </li>
      <li>
        <a href="/privacy">{t('layout.privacy')}</a>
      </li>
      <li>
        <a href="/support">{t('layout.support')}</a>
      </li>
    </SlimFooter>
  );
}
