import type { ResourceKey } from 'i18next';
import { type Language } from '@skanova/shared/site/constants';
import { i18n, switchLanguage } from '../../lib/i18n';

// The app's strings in the other language, loaded by the app itself when the visitor switches (the
// page's own language is in its HTML, ADR 004): the site's shared loader map leaves them out, so the
// public pages do not carry them (lib/i18n.ts).

const STUDIO_NAMESPACE = 'studio';
const strings = import.meta.glob<{ default: ResourceKey }>('./*/studio.json', {
  base: '../../../../../packages/shared/src/i18n/',
});

/** Loads the app's strings in `lang`, then switches the page to it. */
export async function switchStudioLanguage(lang: Language): Promise<void> {
  if (!i18n.hasResourceBundle(lang, STUDIO_NAMESPACE)) {
    const loader = strings[`./${lang}/${STUDIO_NAMESPACE}.json`];
    if (!loader) throw new Error(`No ${STUDIO_NAMESPACE} strings in ${lang}`);
    i18n.addResourceBundle(lang, STUDIO_NAMESPACE, (await loader()).default);
  }
  await switchLanguage(lang);
}
