import { DEFAULT_LANGUAGE, type Language, isLanguage } from '@skanova/shared/site/constants';
import { useTranslation } from '../../lib/react-i18n';

/** The page's language, for the files the server makes (banner images, PDFs) in that language. */
export function usePageLanguage(): Language {
  const { i18n } = useTranslation();
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}
