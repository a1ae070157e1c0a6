import i18next from 'i18next';
import type { ReactNode } from 'react';
import common from '@skanova/shared/i18n/en/common.json';
import marketing from '@skanova/shared/i18n/en/marketing.json';
import { I18nextProvider } from '../../lib/react-i18n';

/** The English strings the marketing components use, for component tests. */
export const testI18n = i18next.createInstance();
void testI18n.init({
  lng: 'en',
  resources: { en: { common, marketing } },
  defaultNS: 'common',
  initAsync: false,
  interpolation: { escapeValue: false, defaultVariables: { brand: 'Skanova' } },
});

export function WithStrings({ children }: { children: ReactNode }) {
  return <I18nextProvider i18n={testI18n}>{children}</I18nextProvider>;
}
