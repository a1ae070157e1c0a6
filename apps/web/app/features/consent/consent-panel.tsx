import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../lib/react-i18n';
import type { ConsentChoice } from '../../lib/consent';
import './consent-banner.css';

export interface ConsentPanelProps {
  /** Move the focus to the panel (when the visitor asked for it, not on a first visit). */
  focusOnShow: boolean;
  onAnswer(choice: ConsentChoice): void;
}

/** Marks a page whose own action must stay visible on a phone: the banner is a short bar there. */
const COMPACT_CONSENT_ATTRIBUTE = 'data-consent-bar';

/**
 * Whether the page asks for the short bar (the referral landing, whose "Open the app" the full
 * banner would cover on a phone). Read from the page in this on-demand chunk: the first load of
 * every page carries nothing for it.
 */
function pageWantsCompactBar(): boolean {
  return document.querySelector(`[${COMPACT_CONSENT_ATTRIBUTE}="compact"]`) !== null;
}

/** The banner's content; loaded on demand by ConsentBanner so it stays out of the first load. */
export function ConsentPanel({ focusOnShow, onAnswer }: ConsentPanelProps) {
  const { t } = useTranslation();
  const [compact] = useState(pageWantsCompactBar);
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
