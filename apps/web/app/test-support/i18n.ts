import i18next, { type Resource, type i18n as I18n } from 'i18next';

/**
 * An i18next instance for component tests: the given strings, ready at once (no loading), `common`
 * as the default namespace, and the brand the pages interpolate (`{{brand}}`).
 */
export function createTestI18n(lang: string, resources: Resource): I18n {
  const i18n = i18next.createInstance();
  void i18n.init({
    lng: lang,
    fallbackLng: false,
    defaultNS: 'common',
    resources,
    initAsync: false,
    interpolation: { escapeValue: false, defaultVariables: { brand: 'Skanova' } },
  });
  return i18n;
}
