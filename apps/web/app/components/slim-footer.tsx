import type { ReactNode } from 'react';
import { useTranslation } from '../lib/react-i18n';
import { siteConfig } from '../lib/site-config';
import './site-footer.css';

/**
 * The slim footer of the affiliate area and the console: a few links (the `<li>` children) and the
 * copyright line. `className` names the area (its width comes with it).
 */
export function SlimFooter({ className, label, children }: { className: string; label: string; children: ReactNode }) {
  const { t } = useTranslation('common');
  return (
    <footer className={`site-footer ${className}`}>
      <div className="container slim-footer__inner">
        <nav aria-label={label}>
          <ul className="slim-footer__links">{children}</ul>
        </nav>
        <p className="slim-footer__copyright">{t('footer.copyright', { year: siteConfig.year })}</p>
      </div>
    </footer>
  );
}
