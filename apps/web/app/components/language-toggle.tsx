import { useEffect, useState } from 'react';
import { useTranslation } from '../lib/react-i18n';
import { switchLanguage } from '../lib/i18n';
import './language-toggle.css';

/**
 * Switches between French and English. It shows the other language's code ("EN"); its accessible
 * name says what it does and contains the visible code, so voice control users can say it. On the
 * prerendered page it says it is unavailable (`aria-disabled`) until its script has taken over: a
 * click before then would do nothing.
 */
export function LanguageToggle() {
  const { t, i18n } = useTranslation();
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const next = i18n.language === 'fr' ? 'en' : 'fr';
  return (
    <button
      type="button"
      className="language-toggle"
      lang={next}
      aria-disabled={ready ? undefined : true}
      onClick={() => void switchLanguage(next)}
    >
      <span className="visually-hidden">{t('language.switchTo')} </span>
      {t(`language.${next}`)}
    </button>
  );
}
