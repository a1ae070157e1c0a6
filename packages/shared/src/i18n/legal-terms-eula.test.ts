import { describe, expect, it } from 'vitest';
import enEula from './en/eula.json';
import enTerms from './en/terms.json';
import frEula from './fr/eula.json';
import frTerms from './fr/terms.json';
import type { LegalDocument } from './legal-document.ts';

// The Terms of Service and the EULA (docs/product/routes-and-screens.md#legal-pages, docs/product/rules-and-constants.md#validation, docs/product/rules-and-constants.md#languages: both
// languages complete). The page component renders { meta, title, updated, intro?, sections[] }.

const documents = {
  terms: { en: enTerms as LegalDocument, fr: frTerms as LegalDocument },
  eula: { en: enEula as LegalDocument, fr: frEula as LegalDocument },
};
const LANGS = ['en', 'fr'] as const;
/** Variables the legal page component supplies; anything else would render as a raw placeholder. */
const KNOWN_VARIABLES = new Set(['brand', 'supportEmail', 'dpoEmail', 'companyAddress', 'publicUrl']);
/** Search engines cut descriptions around this length. */
const MAX_DESCRIPTION = 160;

/** Keys and array lengths, without the text: the two languages must have the same skeleton. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, shape(child)]));
  }
  return typeof value;
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

/** Whole text with non-breaking spaces (French typography) read as plain spaces. */
function fullText(document: LegalDocument): string {
  return strings(document)
    .join('\n')
    .replace(/[\u00a0\u202f]/g, ' ');
}

function variables(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1] ?? '').sort();
}

describe.each(Object.entries(documents))('%s', (name, byLang) => {
  it('has exactly 10 sections in both languages', () => {
    for (const lang of LANGS) expect(byLang[lang].sections, `${name} ${lang}`).toHaveLength(10);
  });

  it('has the same key structure and the same number of paragraphs and items in French and English', () => {
    expect(shape(byLang.fr)).toEqual(shape(byLang.en));
  });

  it('uses the same placeholders in each French string as in its English counterpart', () => {
    const en = strings(byLang.en);
    const fr = strings(byLang.fr);
    expect(fr).toHaveLength(en.length);
    en.forEach((text, index) => expect(variables(fr[index] ?? ''), text).toEqual(variables(text)));
  });

  it.each(LANGS)('(%s) has a title, a date, non-empty sections and a short meta description', (lang) => {
    const document = byLang[lang];
    expect(document.title.trim()).not.toBe('');
    expect(document.meta.title.trim()).not.toBe('');
    expect(document.updated.trim()).not.toBe('');
    const description = document.meta.description.replaceAll('{{brand}}', 'Skanova');
    expect(description.length).toBeGreaterThan(50);
    expect(description.length).toBeLessThanOrEqual(MAX_DESCRIPTION);
    for (const section of document.sections) {
      expect(section.heading.trim()).not.toBe('');
      expect((section.paragraphs?.length ?? 0) + (section.items?.length ?? 0)).toBeGreaterThan(0);
    }
  });

  it.each(LANGS)('(%s) renders with unique keys: headings unique, paragraphs unique within a section', (lang) => {
    const document = byLang[lang];
    const headings = document.sections.map((section) => section.heading);
    expect(new Set(headings).size).toBe(headings.length);
    for (const section of document.sections) {
      for (const list of [section.paragraphs, section.items, section.after]) {
        if (list) expect(new Set(list).size, section.heading).toBe(list.length);
      }
    }
  });

  it.each(LANGS)('(%s) names the brand only through {{brand}} and uses only known variables', (lang) => {
    const text = fullText(byLang[lang]);
    expect(text).not.toMatch(/skanova/i);
    for (const variable of variables(text)) expect(KNOWN_VARIABLES, variable).toContain(variable);
  });
});

describe('Terms of Service', () => {
  it('were last updated on April 18, 2025', () => {
    expect(enTerms.updated).toContain('April 18, 2025');
    expect(frTerms.updated.replace(/\u00a0/g, ' ')).toContain('18 avril 2025');
  });

  it('are governed by French law with consumer rights preserved', () => {
    expect(fullText(enTerms)).toContain('governed by French law');
    expect(fullText(frTerms)).toContain('régies par le droit français');
    expect(fullText(enTerms)).toContain('courts of Paris');
    expect(fullText(frTerms)).toContain('tribunaux compétents de Paris');
  });

  it('state the product facts: minimum age 13, six face zones, not a medical device, cancel 24 hours before renewal', () => {
    const en = fullText(enTerms);
    const fr = fullText(frTerms);
    expect(en).toContain('at least 13 years old');
    expect(fr).toContain('au moins 13 ans');
    expect(en).toContain('six zones');
    expect(fr).toContain('six zones');
    expect(en).toContain('not a medical device');
    expect(fr).toContain('pas un dispositif médical');
    expect(en).toContain('at least 24 hours before the renewal date');
    expect(fr).toContain('au moins 24 heures avant la date de renouvellement');
  });
});

describe('End-User License Agreement', () => {
  it('announces material changes 30 days in advance', () => {
    const en = fullText(enEula);
    const fr = fullText(frEula);
    expect(en).toContain('30 days');
    expect(en).toMatch(/material change at least 30 days before/);
    expect(fr).toContain('30 jours');
    expect(fr).toMatch(/modification substantielle vous est notifiée au moins 30 jours/);
  });

  it('asks for explicit consent to biometric data and states the retention of images', () => {
    const en = fullText(enEula);
    const fr = fullText(frEula);
    expect(en).toContain('biometric');
    expect(fr).toContain('biométriques');
    expect(en).toContain('explicit consent');
    expect(fr).toContain('consentement explicite');
    expect(en).toContain('12 months after your last use');
    expect(fr).toContain('12 mois après votre dernière utilisation');
  });

  it('states that the app is not a medical device', () => {
    expect(fullText(enEula)).toContain('medical device');
    expect(fullText(frEula)).toContain('dispositif médical');
    expect(enEula.sections.some((section) => section.heading === 'The App is not a medical device')).toBe(true);
  });
});
