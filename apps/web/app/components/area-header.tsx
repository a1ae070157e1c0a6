import type { KeyboardEvent, ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../lib/react-i18n';
import { siteConfig } from '../lib/site-config';
import { LanguageToggle } from './language-toggle';
import './site-header.css';

// The header of an area of its own (the affiliate programme, the operators' console): the skip
// link, the brand with the area's name linking to the area's home, what the area adds (a menu),
// and the FR/EN switch; always opaque.

interface AreaHeaderProps {
  /** The area's own class, and any state class (an open menu). */
  className: string;
  /** The area's name after the brand. */
  tag: string;
  /** The area's home. */
  home: string;
  /** Reach the home by a full navigation (another part of the site) rather than a client route. */
  reloadHome?: boolean;
  onKeyDown?: (event: KeyboardEvent<HTMLElement>) => void;
  children?: ReactNode;
}

export function AreaHeader({ className, tag, home, reloadHome = false, onKeyDown, children }: AreaHeaderProps) {
  const { t } = useTranslation('common');
  return (
    <header className={`site-header site-header--opaque ${className}`} onKeyDown={onKeyDown}>
      <a className="skip-link" href="#main">
        {t('skipToContent')}
      </a>
      <div className="container site-header__inner">
        <Link to={home} className="brand" reloadDocument={reloadHome}>
          <span className="brand__name">{siteConfig.brandName}</span> <span className="brand__tag">{tag}</span>
        </Link>
        {children}
        <div className="site-header__actions">
          <LanguageToggle />
        </div>
      </div>
    </header>
  );
}
