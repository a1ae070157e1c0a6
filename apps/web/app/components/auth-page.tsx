import { Suspense, type ReactNode } from 'react';
import { useTranslation } from '../lib/react-i18n';
import { PageMeta } from './page-meta';

// The affiliate area's account pages (signup, login, password reset): a card with the page's title
// and lead, and its form, which loads beside the page (its buttons wait for it). Texts: `auth`
// namespace, under `<page>.title`, `<page>.lead`, `<page>.meta.*`.

export interface AuthPageProps {
  /** The page's path (canonical and alternate links). */
  path: string;
  /** The page's key in the `auth` namespace: `login`, `signup`, `reset`. */
  page: 'login' | 'signup' | 'reset';
  /** Whether the card has a lead paragraph (`<page>.lead`). */
  lead?: boolean;
  /** Kept out of search engines. */
  noindex?: boolean;
  wide?: boolean;
  /** The form (a lazy chunk). */
  children: ReactNode;
}

export function AuthPage({ path, page, lead = false, noindex, wide = false, children }: AuthPageProps) {
  const { t } = useTranslation('auth');
  return (
    <div className="container auth-page">
      <PageMeta
        path={path}
        title={t(`${page}.meta.title`)}
        description={t(`${page}.meta.description`)}
        noindex={noindex}
      />
      <div className={wide ? 'auth-card auth-card--wide' : 'auth-card'}>
        <h1>{t(`${page}.title`)}</h1>
        {lead ? <p className="auth-card__lead">{t(`${page}.lead`)}</p> : null}
        <Suspense fallback={null}>{children}</Suspense>
      </div>
    </div>
  );
}
