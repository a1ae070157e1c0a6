import { useTranslation } from '../lib/react-i18n';
import { switchLanguage } from '../lib/i18n';
import './language-toggle.css';

/**
 * Switches between French and English. It shows the other language's code ("EN"); its accessible
 * name says what it does and contains the visible code, so voice control users can say it.
 */
export function LanguageToggle() {
  const { t, i18n } = useTranslation();
  const next = i18n.language === 'fr' ? 'en' : 'fr';
  return (
    <button type="button" className="language-toggle" lang={next} onClick={() => void switchLanguage(next)}>
      <span className="visually-hidden">{t('language.switchTo')} </span>
      {t(`language.${next}`)}
    </button>
  );
}
