// Public settings the pages show (brand, store and social links, contact details).
//
// The site is prerendered once and configured at start: during the build every value is a
// placeholder token (`%%SK:name%%`) that the server replaces in the HTML with the configured value,
// and it writes the same values as JSON into <script id="sk-config" type="application/json">, which
// the browser reads before hydration. Optional values (phone, live chat) are absent from the
// prerendered markup and appear after hydration only when set.

export interface SiteConfig {
  brandName: string;
  publicUrl: string;
  appUrlScheme: string;
  appStoreUrl: string;
  playStoreUrl: string;
  webAppUrl: string;
  instagramUrl: string;
  twitterUrl: string;
  facebookUrl: string;
  linkedinUrl: string;
  supportEmail: string;
  dpoEmail: string;
  companyAddress: string;
  year: string;
  supportPhone: string | null;
  liveChatUrl: string | null;
  /** Share of page views (0–1) whose web vitals are reported, with consent; the server sends it. */
  vitalsSampleRate?: number;
}

export const REQUIRED_CONFIG_KEYS = [
  'brandName',
  'publicUrl',
  'appUrlScheme',
  'appStoreUrl',
  'playStoreUrl',
  'webAppUrl',
  'instagramUrl',
  'twitterUrl',
  'facebookUrl',
  'linkedinUrl',
  'supportEmail',
  'dpoEmail',
  'companyAddress',
  'year',
] as const satisfies readonly (keyof SiteConfig)[];

export const CONFIG_ELEMENT_ID = 'sk-config';

export function placeholder(key: keyof SiteConfig): string {
  return `%%SK:${key}%%`;
}

function buildTimeConfig(): SiteConfig {
  const entries = REQUIRED_CONFIG_KEYS.map((key) => [key, placeholder(key)]);
  return { ...Object.fromEntries(entries), supportPhone: null, liveChatUrl: null } as SiteConfig;
}

function browserConfig(): SiteConfig {
  const element = document.getElementById(CONFIG_ELEMENT_ID);
  try {
    const parsed = JSON.parse(element?.textContent ?? '') as Partial<SiteConfig>;
    return { ...buildTimeConfig(), ...parsed };
  } catch {
    // Served without the server's substitution (e.g. `vite preview`): keep the tokens.
    return buildTimeConfig();
  }
}

export const siteConfig: SiteConfig = typeof document === 'undefined' ? buildTimeConfig() : browserConfig();
