import { useCallback } from 'react';
import { type TextLine, type TextValue, formatValue, renderLine } from '@skanova/shared/studio/text';
import { useTranslation } from '../../../lib/react-i18n';

/**
 * The consultation's and the routine's composed texts (keys with values, from shared code) in the
 * page's language: numbers and dates in its conventions.
 */
export function useLineText() {
  const { t, i18n } = useTranslation('studio');
  const lang = i18n.language;
  const text = useCallback((line: TextLine) => renderLine(line, (key, values) => t(key, values), lang), [t, lang]);
  const value = useCallback((item: TextValue) => formatValue(item, (key) => t(key), lang), [t, lang]);
  return { text, value };
}
