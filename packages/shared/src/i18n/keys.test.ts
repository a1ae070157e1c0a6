/// <reference types="node" />
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../site/constants.ts';

// Both languages are complete (docs/product/rules-and-constants.md#languages): every namespace file exists in each language with the
// same keys, the same nesting and arrays of the same length; and no string names the brand
// literally, since the brand is configuration ({{brand}} is interpolated everywhere).

const I18N_DIR = path.dirname(fileURLToPath(import.meta.url));
const BRAND_DEFAULT = 'Skanova';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

function namespaces(lang: string): string[] {
  return readdirSync(path.join(I18N_DIR, lang))
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .sort();
}

function load(lang: string, ns: string): Json {
  return JSON.parse(readFileSync(path.join(I18N_DIR, lang, `${ns}.json`), 'utf8')) as Json;
}

/** Every leaf path with the shape of its value: "a.b" → string, "list" → array[3], "list.0.title" → string. */
function shape(value: Json, prefix = ''): Map<string, string> {
  const result = new Map<string, string>();
  const visit = (node: Json, at: string) => {
    if (Array.isArray(node)) {
      result.set(at, `array[${node.length}]`);
      node.forEach((item, index) => visit(item, at ? `${at}.${index}` : String(index)));
    } else if (node !== null && typeof node === 'object') {
      result.set(at, 'object');
      for (const [key, child] of Object.entries(node)) visit(child, at ? `${at}.${key}` : key);
    } else {
      result.set(at, typeof node === 'string' ? (node.trim() === '' ? 'empty string' : 'string') : typeof node);
    }
  };
  visit(value, prefix);
  return result;
}

/** Every string with its path. */
function strings(value: Json, at = ''): [string, string][] {
  if (typeof value === 'string') return [[at, value]];
  if (Array.isArray(value)) return value.flatMap((item, index) => strings(item, `${at}.${index}`));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([key, child]) => strings(child, at ? `${at}.${key}` : key));
  return [];
}

/** Interpolation variables used by a string: {{brand}}, {{ year }}, {{count, number}} → brand, year, count. */
function variables(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((match) => match[1]!).sort();
}

const [reference, ...others] = LANGUAGES;

describe('translation files', () => {
  const everyNamespace = [...new Set(LANGUAGES.flatMap((lang) => namespaces(lang)))].sort();
  it('exist', () => {
    expect(everyNamespace).toContain('common');
  });

  for (const ns of everyNamespace) {
    describe(`namespace "${ns}"`, () => {
      it('exists in every language', () => {
        const lacking = LANGUAGES.filter((lang) => !namespaces(lang).includes(ns));
        expect(lacking, `${ns}.json is missing in`).toEqual([]);
      });

      it('has identical keys, nesting and array lengths in every language', () => {
        if (LANGUAGES.some((lang) => !namespaces(lang).includes(ns))) return; // reported above
        const expected = shape(load(reference, ns));
        for (const lang of others) {
          const actual = shape(load(lang, ns));
          const missing = [...expected.keys()].filter((key) => !actual.has(key));
          const extra = [...actual.keys()].filter((key) => !expected.has(key));
          const differing = [...expected.keys()]
            .filter((key) => actual.has(key) && actual.get(key) !== expected.get(key))
            .map((key) => `${key}: ${reference} ${expected.get(key)}, ${lang} ${actual.get(key)}`);
          expect({ missing, extra, differing }, `${lang}/${ns}.json against ${reference}/${ns}.json`).toEqual({
            missing: [],
            extra: [],
            differing: [],
          });
        }
      });

      it('has no empty strings', () => {
        for (const lang of LANGUAGES.filter((language) => namespaces(language).includes(ns))) {
          const empty = strings(load(lang, ns))
            .filter(([, text]) => text.trim() === '')
            .map(([key]) => key);
          expect(empty, `${lang}/${ns}.json`).toEqual([]);
        }
      });

      it('uses the same interpolation variables in every language', () => {
        if (LANGUAGES.some((lang) => !namespaces(lang).includes(ns))) return; // reported above
        const expected = new Map(strings(load(reference, ns)).map(([key, text]) => [key, variables(text)]));
        for (const lang of others) {
          const differing = strings(load(lang, ns))
            .filter(
              ([key, text]) =>
                expected.has(key) && JSON.stringify(variables(text)) !== JSON.stringify(expected.get(key)),
            )
            .map(([key]) => key);
          expect(differing, `${lang}/${ns}.json`).toEqual([]);
        }
      });

      it(`never names the brand literally (use {{brand}})`, () => {
        for (const lang of LANGUAGES.filter((language) => namespaces(language).includes(ns))) {
          const literal = strings(load(lang, ns))
            .filter(([, text]) => text.toLowerCase().includes(BRAND_DEFAULT.toLowerCase()))
            .map(([key, text]) => `${key}: ${text}`);
          expect(literal, `${lang}/${ns}.json`).toEqual([]);
        }
      });
    });
  }
});
