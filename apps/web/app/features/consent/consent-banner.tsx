import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ConsentChoice, readConsent, saveConsent } from './consent';

/** Shown after hydration to visitors who have not answered yet (the prerendered page cannot know). */
export function ConsentBanner() {
  const { t } = useTranslation();
  const [answered, setAnswered] = useState(true);
  useEffect(() => setAnswered(readConsent() !== null), []);
  if (answered) return null;
  const answer = (choice: ConsentChoice) => {
    saveConsent(choice);
    setAnswered(true);
  };
  return (
    <section className="consent-banner" role="region" aria-labelledby="consent-title">
      <div className="consent-banner__text">
        <h2 id="consent-title">{t('consent.title')}</h2>
        <p>
          {t('consent.text')} <a href="/privacy">{t('consent.policy')}</a>
        </p>
      </div>
      <div className="consent-banner__actions">
        <button type="button" className="button button--secondary" onClick={() => answer('denied')}>
          {t('consent.refuse')}
        </button>
        <button type="button" className="button button--primary" onClick={() => answer('granted')}>
          {t('consent.accept')}
        </button>
      </div>
    </section>
  );
}
