import { ConsentPreferencesButton } from './consent-preferences-button';
import { useTranslation } from '../lib/react-i18n';
import { siteConfig } from '../lib/site-config';
import { Brand, MAIN_LINKS, SiteLink } from './public-header';
import { StoreLinks } from './store-links';
import './site-footer.css';
import './public-footer.css';

const SOCIAL_NETWORKS = [
  ['instagram', 'Instagram', siteConfig.instagramUrl],
  ['twitter', 'Twitter', siteConfig.twitterUrl],
  ['facebook', 'Facebook', siteConfig.facebookUrl],
  ['linkedin', 'LinkedIn', siteConfig.linkedinUrl],
] as const;

export function PublicFooter() {
  const { t } = useTranslation();
  // Columns of [path, label]: the header's links, help anchors and the company pages (docs/product/routes-and-screens.md#public-header-and-footer).
  const columns: [string, [string, string][]][] = [
    ['site', MAIN_LINKS.slice(0, 2).map(([to, key]) => [to, t(`nav.${key}`)])],
    ['legal', MAIN_LINKS.slice(2, 6).map(([to, key]) => [to, t(`nav.${key}`)])],
    [
      'help',
      [
        ['/support', t('nav.support')],
        ['/support#faq', t('footer.faq')],
        ['/support#contact', t('footer.contact')],
      ],
    ],
    ['company', ['about', 'careers', 'press', 'blog'].map((page) => [`/${page}`, t(`footer.${page}`)])],
  ];
  return (
    <footer className="site-footer">
      <div className="container site-footer__top">
        <div>
          <Brand />
          <p className="site-footer__tagline">{t('brandTagline')}</p>
          {/* The support address where the column is as wide as the footer on a phone: one word, one line. */}
          <p>
            <a href={`mailto:${siteConfig.supportEmail}`}>{siteConfig.supportEmail}</a>
          </p>
          <StoreLinks />
          <ul className="social-links">
            {SOCIAL_NETWORKS.map(([id, name, url]) => (
              <li key={id}>
                <a
                  className={`social-link social-link--${id}`}
                  href={url}
                  aria-label={t('footer.socialLabel', { network: name })}
                />
              </li>
            ))}
          </ul>
        </div>
        <nav className="site-footer__columns" aria-label={t('footer.label')}>
          {columns.map(([id, links]) => (
            <div key={id}>
              <h2 className="site-footer__heading">{t(`footer.${id}`)}</h2>
              <ul className="site-footer__list">
                {links.map(([to, label]) => (
                  <li key={to}>
                    <SiteLink to={to}>{label}</SiteLink>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
      </div>
      <div className="container site-footer__bottom">
        <p>{t('footer.copyright', { year: siteConfig.year })}</p>
        <p>{t('footer.notMedical')}</p>
        <p>
          <ConsentPreferencesButton>{t('footer.cookiePreferences')}</ConsentPreferencesButton>
        </p>
      </div>
    </footer>
  );
}
