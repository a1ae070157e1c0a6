import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import {
  STUDIO_CONSULTATION_PAGE,
  STUDIO_DATA_PAGE,
  STUDIO_HOME,
  STUDIO_JOURNAL_PAGE,
  STUDIO_ROUTINE_PAGE,
} from '@skanova/shared/studio/constants';
import { LanguageToggle } from '../../components/language-toggle';
import { useTranslation } from '../../lib/react-i18n';
import { siteConfig } from '../../lib/site-config';
import { OfflineSupport } from './offline/offline-support';
import '../../components/site-header.css';
import './studio-strings';

/** The app's sections, in the order of its navigation bar. */
const SECTIONS = [
  { to: STUDIO_HOME, key: 'scans' },
  { to: STUDIO_JOURNAL_PAGE, key: 'journal' },
  { to: STUDIO_CONSULTATION_PAGE, key: 'consultation' },
  { to: STUDIO_ROUTINE_PAGE, key: 'routine' },
  { to: STUDIO_DATA_PAGE, key: 'data' },
] as const;

/**
 * The web app's frame (ADR 010): a compact bar with the app's name, the language and the way back to
 * the site, then the app's sections.
 */
export function StudioLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation('studio');
  const { t: tCommon } = useTranslation('common');
  return (
    <>
      <header className="site-header site-header--opaque studio-header">
        <a className="skip-link" href="#main">
          {tCommon('skipToContent')}
        </a>
        <div className="container site-header__inner">
          <Link to={STUDIO_HOME} className="brand" aria-label={t('layout.homeLink')}>
            <span className="brand__name">{siteConfig.brandName}</span>{' '}
            <span className="brand__tag studio-header__tag">{t('layout.appName')}</span>
          </Link>
          <div className="site-header__actions studio-header__actions">
            <LanguageToggle />
            {/* "← Site" on phones, where the bar is narrow; the full words from 640 px. */}
            <a href="/" className="button button--ghost button--small studio-header__back">
              <span className="studio-header__back-short">{t('layout.backToSiteShort')}</span>
              <span className="studio-header__back-long">{t('layout.backToSite')}</span>
            </a>
          </div>
        </div>
      </header>
      <nav className="studio-nav" aria-label={t('layout.nav.label')}>
        <ul className="container studio-nav__list">
          {SECTIONS.map((section) => (
            <li key={section.key}>
              <NavLink to={section.to} end className="studio-nav__link">
                {t(`layout.nav.${section.key}`)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" className="studio-main" tabIndex={-1}>
        {children}
      </main>
      <OfflineSupport />
    </>
  );
}
