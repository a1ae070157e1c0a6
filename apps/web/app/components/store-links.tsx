import { useTranslation } from '../lib/react-i18n';
import { siteConfig } from '../lib/site-config';
import './store-links.css';

/** App Store and Google Play links, drawn as badges by the theme (.store-badge). */
export function StoreLinks() {
  const { t } = useTranslation();
  return (
    <ul className="store-links">
      <li>
        <a className="store-badge store-badge--apple" href={siteConfig.appStoreUrl}>
          {t('footer.appStore')}
        </a>
      </li>
      <li>
        <a className="store-badge store-badge--google" href={siteConfig.playStoreUrl}>
          {t('footer.googlePlay')}
        </a>
      </li>
    </ul>
  );
}
