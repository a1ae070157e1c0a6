import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { STORABLE_JSON_MAX_DEPTH, isStorableJson, isStorableText, storableText } from './storable-text.ts';

// The storable-text rule: what PostgreSQL text and jsonb can hold as sent.

const UNSTORABLE = [
  ['a NUL character', 'a\u0000b'],
  ['a NUL character alone', '\u0000'],
  ['a lone high surrogate', '\ud800'],
  ['a lone high surrogate inside text', 'caf\ud83d!'],
  ['a lone high surrogate at the end', 'abc\udbff'],
  ['a lone low surrogate', '\udc00'],
  ['a low surrogate before its high one', '\ude00\ud83d'],
  ['two high surrogates', '\ud83d\ud83d\ude00'],
] as const;

const STORABLE = [
  ['empty text', ''],
  ['accents', 'Élodie Dupré'],
  ['a character outside the BMP (a surrogate pair)', 'smile 😀 𝔘'],
  ['control characters other than NUL', 'tab\there\u0001\u001f'],
  ['the replacement character', '\ufffd'],
  ['text that merely names NUL', '\\u0000 %00'],
] as const;

describe('isStorableText', () => {
  it.each(UNSTORABLE)('refuses %s', (_label, value) => {
    expect(isStorableText(value)).toBe(false);
  });

  it.each(STORABLE)('accepts %s', (_label, value) => {
    expect(isStorableText(value)).toBe(true);
  });

  it('checks 60 KB of text quickly, a lone surrogate at its end included', () => {
    const long = '𝔘é'.repeat(20_000);
    expect(isStorableText(long)).toBe(true);
    expect(isStorableText(`${long}\ud800`)).toBe(false);
  });
});

describe('isStorableJson', () => {
  it('checks every string and every key, at any place', () => {
    expect(isStorableJson({ a: ['x', { b: 'y' }], c: 1, d: null, e: true })).toBe(true);
    expect(isStorableJson({ a: ['x', { b: 'y\ud800' }] })).toBe(false);
    expect(isStorableJson({ a: [{ ['k\ud800']: 'v' }] })).toBe(false);
    expect(isStorableJson({ ['\u0000']: 1 })).toBe(false);
    expect(isStorableJson('\udc00')).toBe(false);
    expect(isStorableJson(42)).toBe(true);
  });

  it(`refuses an object or array below depth ${STORABLE_JSON_MAX_DEPTH} (the top value at 0), 5,000 deep too`, () => {
    const nest = (depth: number): unknown => {
      let value: unknown = 1;
      for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
      return value;
    };
    expect(isStorableJson(nest(STORABLE_JSON_MAX_DEPTH + 1))).toBe(true);
    expect(isStorableJson(nest(STORABLE_JSON_MAX_DEPTH + 2))).toBe(false);
    expect(isStorableJson(nest(5_000))).toBe(false);
  });
});

describe('storableText (the zod check)', () => {
  it('works in zod schemas, keys of records included', () => {
    const schema = z.record(z.string().max(64).check(storableText()), z.string().check(storableText()));
    expect(schema.safeParse({ utm_source: 'insta' }).success).toBe(true);
    const badValue = schema.safeParse({ utm_source: 'a\ud800' });
    expect(badValue.error?.issues[0]?.message).toBe('unstorable-text');
    expect(schema.safeParse({ ['\ud800']: 'x' }).success).toBe(false);
  });

  it('works in zod/mini schemas, with the form’s translation key', () => {
    const schema = zm.string().check(zm.trim(), storableText('errors.invalidCharacters'));
    expect(schema.safeParse(' Ada ').data).toBe('Ada');
    expect(schema.safeParse('Ada\u0000').error?.issues[0]?.message).toBe('errors.invalidCharacters');
  });
});
