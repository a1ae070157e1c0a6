import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The site's own strings, so tests find elements by the names a visitor reads in either language.

const I18N_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../packages/shared/src/i18n');

export type Lang = 'fr' | 'en';

export function strings(lang: Lang, ns = 'common'): Record<string, any> {
  return JSON.parse(readFileSync(path.join(I18N_DIR, lang, `${ns}.json`), 'utf8'));
}

/** A string with its `{{name}}` placeholders filled, as i18next does. */
export function fill(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name]));
}
