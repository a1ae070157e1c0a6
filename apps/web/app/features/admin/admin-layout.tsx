import type { ReactNode } from 'react';
import { AreaHeader } from '../../components/area-header';
import { SlimFooter } from '../../components/slim-footer';
import { useTranslation } from '../../lib/react-i18n';
import { SessionProvider } from '../../lib/auth/session';

// The operator console's shell (BRIEF §5.10): a slim header with the brand, the area's name and the
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
  return <AreaHeader className="admin-header" tag={t('layout.tag')} home="/" reloadHome />;
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
