import { useTranslation } from '../lib/react-i18n';
import { siteConfig } from '../lib/site-config';
import './store-links.css';

export type Store = 'appStore' | 'googlePlay';

/**
 * The App Store and Google Play badges, drawn as the stores draw theirs (store-links.css: a black
 * rounded rectangle, the store's logo, a small line and the store's name) from our own stylesheet.
 * Each badge's link is named by the whole phrase ("Download on the App Store"). The addresses are
 * the configured stores' unless given; a store given `null` is left out (a phone sees its own).
 */
export function StoreLinks({
  appStore = siteConfig.appStoreUrl,
  googlePlay = siteConfig.playStoreUrl,
}: Partial<Record<Store, string | null>>) {
  const { t } = useTranslation();
  return (
    <ul className="store-links">
      {Object.entries({ appStore, googlePlay }).map(([store, href]) => {
        const badge = t(`storeBadge.${store}`, { returnObjects: true }) as Record<'label' | 'top' | 'name', string>;
        return href ? (
          <li key={store}>
            <a className={`store-badge store-badge--${store}`} href={href} aria-label={badge.label}>
              <span>{badge.top}</span>
              <span>{badge.name}</span>
            </a>
          </li>
        ) : null;
      })}
    </ul>
  );
}
