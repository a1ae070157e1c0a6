import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../lib/react-i18n';
import { Link, NavLink } from 'react-router';
import { HEADER_OPAQUE_SCROLL_PX } from '@skanova/shared/site/timing';
import { siteConfig } from '../lib/site-config';
import { LanguageToggle } from './language-toggle';
import './site-header.css';

/** The spec's header links (§2), also listed by the footer. Label keys live under `nav.` in common.json. */
export const MAIN_LINKS = [
  ['/', 'home'],
  ['/affiliate', 'affiliate'],
  ['/terms', 'terms'],
  ['/privacy', 'privacy'],
  ['/eula', 'eula'],
  ['/rgpd', 'rgpd'],
  ['/support', 'support'],
] as const;

/** /affiliate is served as its own page (a full navigation); the others are client routes. */
export function SiteLink({ to, className, children }: { to: string; className?: string; children: string }) {
  return to.startsWith('/affiliate') || !to.startsWith('/') ? (
    <a href={to} className={className}>
      {children}
    </a>
  ) : (
    <NavLink to={to} end className={className}>
      {children}
    </NavLink>
  );
}

export function Brand() {
  return (
    <Link to="/" className="brand">
      <span className="brand__name">{siteConfig.brandName}</span>
    </Link>
  );
}

export function PublicHeader() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [opaque, setOpaque] = useState(false);
  const button = useRef<HTMLButtonElement>(null);

  // Transparent at the top of the page, opaque once scrolled past the threshold (docs/product/rules-and-constants.md#timings).
  useEffect(() => {
    const update = () => setOpaque(window.scrollY > HEADER_OPAQUE_SCROLL_PX);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, []);

  return (
    // Escape (focus inside the header) closes the open menu and gives focus back to its button.
    <header
      className={`site-header${opaque ? ' site-header--opaque' : ''}${open ? ' site-header--open' : ''}`}
      onKeyDown={(event) => {
        if (open && event.key === 'Escape') {
          setOpen(false);
          button.current?.focus();
        }
      }}
    >
      <a className="skip-link" href="#main">
        {t('skipToContent')}
      </a>
      <div className="container site-header__inner">
        <Brand />
        <nav className="site-nav" aria-label={t('nav.label')}>
          <button
            ref={button}
            type="button"
            className="menu-button"
            aria-expanded={open}
            aria-controls="site-menu"
            aria-label={t(open ? 'nav.closeMenu' : 'nav.openMenu')}
            onClick={() => setOpen(!open)}
          >
            <span className="menu-button__icon" />
          </button>
          <ul id="site-menu" className="site-nav__list" onClick={() => setOpen(false)}>
            {MAIN_LINKS.map(([to, key]) => (
              <li key={to}>
                <SiteLink to={to} className="site-nav__link">
                  {t(`nav.${key}`)}
                </SiteLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="site-header__actions">
          <LanguageToggle />
          <a href={siteConfig.webAppUrl} className="button button--primary button--small">
            {t('nav.app')}
          </a>
        </div>
      </div>
    </header>
  );
}
