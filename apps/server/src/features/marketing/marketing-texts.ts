import { createRequire } from 'node:module';
import type { Language } from '@skanova/shared/site/constants';
import type { BannerTexts } from '@skanova/shared/marketing/banner-template';

// The words of the banners and print documents the server draws: the same `marketing`
// translations the panel shows, so a banner looks the same in the browser and at its public URL.

const require = createRequire(import.meta.url);
type Tree = { [key: string]: string | Tree } | Tree[];
const TEXTS: Record<Language, Tree> = {
  fr: require('@skanova/shared/i18n/fr/marketing.json') as Tree,
  en: require('@skanova/shared/i18n/en/marketing.json') as Tree,
};

/** The `marketing` translation at `key` (dots, array indexes included), with `{{name}}` filled and `{{brand}}` always. */
export function marketingText(lang: Language, key: string, brand: string, values: Record<string, string> = {}): string {
  let node: string | Tree | undefined = TEXTS[lang];
  for (const part of key.split('.'))
    node = typeof node === 'object' ? (node as Record<string, string | Tree>)[part] : undefined;
  if (typeof node !== 'string') throw new Error(`missing marketing text ${lang}:${key}`);
  const all: Record<string, string> = { brand, ...values };
  return node.replace(/\{\{(\w+)\}\}/g, (match, name: string) => all[name] ?? match);
}

export function bannerTexts(lang: Language, brand: string): BannerTexts {
  const text = (key: keyof BannerTexts) => marketingText(lang, `banner.${key}`, brand);
  return {
    headline: text('headline'),
    tagline: text('tagline'),
    cta: text('cta'),
    codeLabel: text('codeLabel'),
    scan: text('scan'),
  };
}
