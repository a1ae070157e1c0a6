import { useEffect, useRef } from 'react';
import { useTranslation } from '../../lib/react-i18n';
import type { ConsentChoice } from './consent';
import './consent-banner.css';

export interface ConsentPanelProps {
  /** Move the focus to the panel (when the visitor asked for it, not on a first visit). */
  focusOnShow: boolean;
  /** A short bar (the referral landing: it must leave the page's own action visible on a phone). */
  compact?: boolean;
  onAnswer(choice: ConsentChoice): void;
}

/** The banner's content; loaded on demand by ConsentBanner so it stays out of the first load. */
export function ConsentPanel({ focusOnShow, compact = false, onAnswer }: ConsentPanelProps) {
  const { t } = useTranslation();
  const regionRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (focusOnShow) regionRef.current?.focus();
  }, [focusOnShow]);
  return (
    <section
      ref={regionRef}
      className={`consent-banner${compact ? ' consent-banner--compact' : ''}`}
      aria-labelledby="consent-title"
      tabIndex={-1}
    >
      <div className="consent-banner__text">
        {/* The compact bar keeps its title for assistive technologies: it names the region. */}
        <h2 id="consent-title" className={compact ? 'visually-hidden' : 'consent-banner__title'}>
          {t('consent.title')}
        </h2>
        <p>
          {t(compact ? 'consent.short' : 'consent.text')} <a href="/privacy">{t('consent.policy')}</a>
        </p>
      </div>
      <div className="consent-banner__actions">
        <button type="button" className="consent-banner__button" onClick={() => onAnswer('denied')}>
          {t('consent.refuse')}
        </button>
        <button
          type="button"
          className="consent-banner__button consent-banner__button--primary"
          onClick={() => onAnswer('granted')}
        >
          {t('consent.accept')}
        </button>
      </div>
    </section>
  );
}
