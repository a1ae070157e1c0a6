import type { ReactNode } from 'react';
import { LanguageToggle } from '../../components/language-toggle';
import './admin-strings';
import { SlimFooter } from '../../components/slim-footer';
import { useTranslation } from '../../lib/react-i18n';
import { siteConfig } from '../../lib/site-config';
import { SessionProvider } from '../../lib/auth/session';
import '../../components/site-header.css';

// The operator console's shell (docs/product/routes-and-screens.md#operator-console): a slim header with the brand, the area's name and the
// language switch, the page, a slim footer, and the sign-in session (the same accounts as the
// affiliate area; the server decides who is an operator). Part of the /admin route itself rather
// than a layout route: every route costs every page's manifest a few bytes of its JavaScript budget.

export function AdminLayout({ children }: { children: ReactNode }) {
  return (
    <SessionProvider>
      <AdminHeader />
      <main id="main" className="admin-main fade-in" tabIndex={-1}>
        {children}
      </main>
      <AdminFooter />
    </SessionProvider>
  );
}

function AdminHeader() {
  const { t } = useTranslation('admin');
  const { t: tCommon } = useTranslation('common');
  return (
    <header className="site-header site-header--opaque admin-header">
      <a className="skip-link" href="#main">
        {tCommon('skipToContent')}
      </a>
      <div className="container site-header__inner">
        <a href="/" className="brand">
          <span className="brand__name">{siteConfig.brandName}</span>{' '}
          <span className="brand__tag">{t('layout.tag')}</span>
        </a>
        <div className="site-header__actions">
          <LanguageToggle />
        </div>
      </div>
    </header>
  );
}

function AdminFooter() {
  const { t } = useTranslation('admin');
  return (
    <SlimFooter className="admin-footer" label={t('layout.footerLabel')}>
      <li>
        <a href="/">{t('layout.mainSite')}</a>
      </li>
      <li>
        <a href="/affiliate">{t('layout.affiliateSite')}</a>
      </li>
    </SlimFooter>
  );
}
