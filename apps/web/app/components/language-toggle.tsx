import { useTranslation } from 'react-i18next';
import { switchLanguage } from '../lib/i18n';

export function LanguageToggle() {
  const { t, i18n } = useTranslation();
  const next = i18n.language === 'fr' ? 'en' : 'fr';
  return (
    <button type="button" className="language-toggle" lang={next} aria-label={t('language.switchTo')} onClick={() => void switchLanguage(next)}>
      {t(`language.${next}`)}
    </button>
  );
}
