import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, isLanguage, type Language } from '@skanova/shared/site/constants';
import { siteConfig } from './site-config';

// One i18next instance. Its first language is the page's <html lang> (the server chose it), so
// hydration renders exactly what was prerendered. The strings a page needs travel inside its HTML
// (<script id="sk-i18n" type="application/json">); other namespaces and the other language are
// loaded on demand as separate chunks, so a page never downloads both languages.

export const I18N_ELEMENT_ID = 'sk-i18n';
/** Namespaces every page uses (header, footer, consent banner, errors). */
export const COMMON_NAMESPACES = ['common'];

type Loaders = Record<string, () => Promise<{ default: ResourceKey }>>;

// The e-mail and payout-file texts are the server's: no page needs them, so no page carries their loaders.
// The strings of an area with its own chunk (the operators' console, the web app) are prerendered like
// any page's, but in the browser the area's chunk brings their loaders (`addNamespaceLoaders`): the public
// pages do not carry them.
// Keys are `<lang>/<namespace>.json` (relative to the translations folder): every page carries this map.
const loaders: Loaders = import.meta.env.SSR
  ? import.meta.glob<{ default: ResourceKey }>(['./*/*.json', '!./*/emails.json', '!./*/payout-transfers.json'], {
      base: '../../../../packages/shared/src/i18n/',
    })
  : import.meta.glob<{ default: ResourceKey }>(
      ['./*/*.json', '!./*/emails.json', '!./*/payout-transfers.json', '!./*/studio.json', '!./*/admin.json'],
      { base: '../../../../packages/shared/src/i18n/' },
    );

/** Called by an area's own chunk with the loaders of its strings (keys as in the shared map). */
export function addNamespaceLoaders(areaLoaders: Loaders): void {
  Object.assign(loaders, areaLoaders);
}

export function loadNamespace(lang: string, ns: string): Promise<ResourceKey> {
  const loader = loaders[`./${lang}/${ns}.json`];
  if (!loader) return Promise.reject(new Error(`No translations for ${lang}/${ns}`));
  return loader().then((module) => module.default);
}

/** Prerender: every namespace of one language. */
export async function loadAllNamespaces(lang: string): Promise<Record<string, ResourceKey>> {
  const prefix = `./${lang}/`;
  const files = Object.keys(loaders).filter((file) => file.startsWith(prefix));
  const namespaces = files.map((file) => file.slice(prefix.length, -'.json'.length));
  const entries = await Promise.all(namespaces.map(async (ns) => [ns, await loadNamespace(lang, ns)] as const));
  return Object.fromEntries(entries);
}

const chunkBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(lang, ns, callback) {
    loadNamespace(lang, ns).then(
      (resources) => callback(null, resources),
      (error: Error) => callback(error, false),
    );
  },
};

interface EmbeddedStrings {
  lang: Language;
  resources: Record<string, ResourceKey>;
}

function readEmbeddedStrings(): EmbeddedStrings {
  const lang = document.documentElement.lang;
  const fallback = { lang: isLanguage(lang) ? lang : DEFAULT_LANGUAGE, resources: {} };
  try {
    const parsed = JSON.parse(document.getElementById(I18N_ELEMENT_ID)?.textContent ?? '') as EmbeddedStrings;
    return { ...fallback, resources: parsed.resources ?? {} };
  } catch {
    return fallback;
  }
}

export const i18n = i18next.createInstance();

export function initBrowserI18n(): typeof i18n {
  const embedded = readEmbeddedStrings();
  void i18n.use(chunkBackend).init({
    lng: embedded.lang,
    fallbackLng: false,
    supportedLngs: ['fr', 'en'],
    ns: Object.keys(embedded.resources),
    defaultNS: 'common',
    partialBundledLanguages: true,
    resources: { [embedded.lang]: embedded.resources },
    initAsync: false,
    interpolation: { escapeValue: false, defaultVariables: { brand: siteConfig.brandName } },
  });
  return i18n;
}

/** Prerender: every namespace of the build's language, given synchronously. */
export function initServerI18n(lang: Language, resources: Record<string, ResourceKey>): typeof i18n {
  void i18n.init({
    lng: lang,
    fallbackLng: false,
    supportedLngs: ['fr', 'en'],
    ns: Object.keys(resources),
    defaultNS: 'common',
    resources: { [lang]: resources },
    initAsync: false,
    interpolation: { escapeValue: false, defaultVariables: { brand: siteConfig.brandName } },
  });
  return i18n;
}

/** Switches the language in place and remembers the choice for a year (the server reads it). */
export async function switchLanguage(lang: Language): Promise<void> {
  document.cookie = `${LANGUAGE_COOKIE}=${lang}; Path=/; Max-Age=31536000; SameSite=Lax`;
  await i18n.changeLanguage(lang);
}
