import { describe, expect, it } from 'vitest';
import { negotiateLanguage, pickFromAcceptLanguage } from './negotiate.ts';

describe('negotiateLanguage', () => {
  it('prefers ?lang= over everything', () => {
    expect(negotiateLanguage({ query: 'en', cookie: 'fr', acceptLanguage: 'fr-FR' })).toBe('en');
  });
  it('then the cookie set by the toggle', () => {
    expect(negotiateLanguage({ query: 'de', cookie: 'en', acceptLanguage: 'fr-FR' })).toBe('en');
  });
  it('then Accept-Language by quality', () => {
    expect(negotiateLanguage({ acceptLanguage: 'de-DE, fr;q=0.5, en;q=0.8' })).toBe('en');
    expect(negotiateLanguage({ acceptLanguage: 'en-GB,en;q=0.9' })).toBe('en');
  });
  it('falls back to French', () => {
    expect(negotiateLanguage({})).toBe('fr');
    expect(negotiateLanguage({ acceptLanguage: 'de, es;q=0.9' })).toBe('fr');
    expect(negotiateLanguage({ cookie: 'xx', acceptLanguage: '' })).toBe('fr');
  });
  it('ignores zero-quality and malformed entries', () => {
    expect(pickFromAcceptLanguage('en;q=0, fr;q=0.1')).toBe('fr');
    expect(pickFromAcceptLanguage(';;,,q=abc')).toBeUndefined();
  });
});
