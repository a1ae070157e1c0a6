import { useEffect, useRef } from 'react';
import { useTranslation } from '../../lib/react-i18n';
import type { ConsentChoice } from '../../lib/consent';
import './consent-banner.css';

export interface ConsentPanelProps {
  /** Move the focus to the panel (when the visitor asked for it, not on a first visit). */
  focusOnShow: boolean;
  onAnswer(choice: ConsentChoice): void;
}

/** The banner's content; loaded on demand by ConsentBanner so it stays out of the first load. */
export function ConsentPanel({ focusOnShow, onAnswer }: ConsentPanelProps) {
  const { t } = useTranslation();
  const regionRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (focusOnShow) regionRef.current?.focus();
  }, [focusOnShow]);
  return (
    <section ref={regionRef} className="consent-banner" aria-labelledby="consent-title" tabIndex={-1}>
      <div className="consent-banner__text">
        <h2 id="consent-title" className="consent-banner__title">
          {t('consent.title')}
        </h2>
        <p>
          {t('consent.text')} <a href="/privacy">{t('consent.policy')}</a>
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
