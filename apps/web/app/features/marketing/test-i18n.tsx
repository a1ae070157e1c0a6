import type { ReactNode } from 'react';
import common from '@skanova/shared/i18n/en/common.json';
import marketing from '@skanova/shared/i18n/en/marketing.json';
import { I18nextProvider } from '../../lib/react-i18n';
import { createTestI18n } from '../../test-support/i18n';

/** The English strings the marketing components use, for component tests. */
export const testI18n = createTestI18n('en', { en: { common, marketing } });

export function WithStrings({ children }: { children: ReactNode }) {
  return <I18nextProvider i18n={testI18n}>{children}</I18nextProvider>;
}
