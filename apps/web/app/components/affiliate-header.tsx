import { useRef, useState } from 'react';
import { Link, NavLink } from 'react-router';
import { AFFILIATE_DASHBOARD_PAGE } from '@skanova/shared/affiliate/constants';
import { useTranslation } from '../lib/react-i18n';
import { siteConfig } from '../lib/site-config';
import { LanguageToggle } from './language-toggle';
import './site-header.css';

/** The affiliate area's pages are client routes of one layout; the main site is a full navigation. */
const AREA_LINKS = [
  ['/affiliate', 'home'],
  [AFFILIATE_DASHBOARD_PAGE, 'dashboard'],
] as const;

/**
 * Header of the affiliate area (docs/product/routes-and-screens.md#affiliate-layout): home, dashboard and main-site links, the
 * FR/EN switch, and below 1024 px a menu (also listing the terms) that closes when a link is chosen.
 */
export function AffiliateHeader() {
  const { t } = useTranslation('affiliate');
  const { t: tCommon } = useTranslation('common');
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);

  return (
    // Escape (focus inside the header) closes the open menu and gives focus back to its button.
    <header
      className={`site-header site-header--opaque affiliate-header${open ? ' site-header--open' : ''}`}
      onKeyDown={(event) => {
        if (open && event.key === 'Escape') {
          setOpen(false);
          button.current?.focus();
        }
      }}
    >
      <a className="skip-link" href="#main">
        {tCommon('skipToContent')}
      </a>
      <div className="container site-header__inner">
        <Link to="/affiliate" className="brand">
          <span className="brand__name">{siteConfig.brandName}</span>{' '}
          <span className="brand__tag">{t('layout.programme')}</span>
        </Link>
        <nav className="site-nav" aria-label={t('layout.navLabel')}>
          <button
            ref={button}
            type="button"
            className="menu-button"
            aria-expanded={open}
            aria-controls="affiliate-menu"
            aria-label={tCommon(open ? 'nav.closeMenu' : 'nav.openMenu')}
            onClick={() => setOpen(!open)}
          >
            <span className="menu-button__icon" />
          </button>
          <ul id="affiliate-menu" className="site-nav__list" onClick={() => setOpen(false)}>
            {AREA_LINKS.map(([to, key]) => (
              <li key={to}>
                <NavLink to={to} end className="site-nav__link">
                  {t(`layout.${key}`)}
                </NavLink>
              </li>
            ))}
            <li>
              <a href="/" className="site-nav__link">
                {t('layout.mainSite')}
              </a>
            </li>
            <li className="affiliate-nav__menu-only">
              <NavLink to="/affiliate/terms" end className="site-nav__link">
                {t('layout.terms')}
              </NavLink>
            </li>
          </ul>
        </nav>
        <div className="site-header__actions">
          <LanguageToggle />
        </div>
      </div>
    </header>
  );
}
