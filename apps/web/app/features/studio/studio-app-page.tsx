import type { ReactNode } from 'react';
import { PageMeta } from '../../components/page-meta';
import { useTranslation } from '../../lib/react-i18n';
import { ConsentedOnly } from './use-consent';

interface StudioAppPageProps {
  /** The page's path (STUDIO_*_PAGE). */
  path: string;
  /** The page's title, in the visitor's language. */
  title: string;
  /** The page's own class, beside `container studio-page`. */
  className?: string;
  children: ReactNode;
}

/**
 * The frame of every app page past its home: the page's container, its meta (device-only pages are
 * never indexed) and the consent check.
 */
export function StudioAppPage({ path, title, className, children }: StudioAppPageProps) {
  const { t } = useTranslation('studio');
  return (
    <div className={className ? `container studio-page ${className}` : 'container studio-page'}>
      <PageMeta path={path} title={title} description={t('meta.homeDescription')} noindex />
      <ConsentedOnly>{children}</ConsentedOnly>
    </div>
  );
}
