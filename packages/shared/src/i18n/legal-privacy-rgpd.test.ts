import { describe, expect, it } from 'vitest';
import enPrivacy from './en/privacy.json';
import enRgpd from './en/rgpd.json';
import frPrivacy from './fr/privacy.json';
import frRgpd from './fr/rgpd.json';
import type { LegalDocument, LegalSection } from './legal-document.ts';

// The privacy policy and the GDPR page are legal documents rendered by the web app's LegalPage
// component: both languages must say the same thing, section for section, with the retention
// periods of the product's rules (docs/product/rules-and-constants.md#validation, docs/product/rules-and-constants.md#security).

const documents = {
  privacy: { en: enPrivacy as LegalDocument, fr: frPrivacy as LegalDocument },
  rgpd: { en: enRgpd as LegalDocument, fr: frRgpd as LegalDocument },
};

/** Placeholders the LegalPage component fills in; anything else would show as raw text. */
const ALLOWED_PLACEHOLDERS = new Set(['brand', 'supportEmail', 'dpoEmail', 'companyAddress', 'publicUrl']);
const META_DESCRIPTION_MAX = 160;

const RETENTION_FIGURES = {
  en: ['12 months', '24 months', '5 years', '30 days', '90 days'],
  fr: ['12 mois', '24 mois', '5 ans', '30 jours', '90 jours'],
};

const MONTHS = {
  en: [
    'january',
    'february',
    'march',
    'april',
    'may',
    'june',
    'july',
    'august',
    'september',
    'october',
    'november',
    'december',
  ],
  fr: [
    'janvier',
    'février',
    'mars',
    'avril',
    'mai',
    'juin',
    'juillet',
    'août',
    'septembre',
    'octobre',
    'novembre',
    'décembre',
  ],
};

/** The shape of a document with every string replaced by its placeholders. */
function structure(value: unknown): unknown {
  if (typeof value === 'string') return placeholders(value);
  if (Array.isArray(value)) return value.map(structure);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, structure(inner)]));
  }
  return value;
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1] ?? '').sort();
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

function sectionText(section: LegalSection | undefined): string {
  return strings(section).join('\n').replace(/\s+/g, ' ');
}

/** "Last updated: May 20, 2025" / "Dernière mise à jour : 20 mai 2025" → "2025-05-20". */
function isoDate(updated: string, lang: 'en' | 'fr'): string | undefined {
  const text = updated.toLowerCase();
  const month = MONTHS[lang].findIndex((name) => new RegExp(`(^|[^\\p{L}])${name}([^\\p{L}]|$)`, 'u').test(text));
  const year = /\b(20\d\d)\b/.exec(text)?.[1];
  const day = /\b([0-3]?\d)\b(?!\d)/.exec(text.replace(/\b20\d\d\b/, ''))?.[1];
  if (month < 0 || !year || !day) return undefined;
  return `${year}-${String(month + 1).padStart(2, '0')}-${day.padStart(2, '0')}`;
}

describe.each(Object.entries(documents))('%s', (_name, { en, fr }) => {
  it('has the same key structure, array lengths and placeholders in French and English', () => {
    expect(structure(fr)).toEqual(structure(en));
  });

  it.each(['en', 'fr'] as const)('is complete and renderable in %s', (lang) => {
    const doc = { en, fr }[lang];
    expect(doc.meta.title.trim()).not.toBe('');
    expect(doc.meta.description.trim()).not.toBe('');
    expect(doc.meta.description.length).toBeLessThanOrEqual(META_DESCRIPTION_MAX);
    expect(doc.title.trim()).not.toBe('');
    expect(doc.sections.length).toBeGreaterThan(0);
    for (const section of doc.sections) {
      expect(section.heading.trim()).not.toBe('');
      const content = [...(section.paragraphs ?? []), ...(section.items ?? []), ...(section.after ?? [])];
      expect(content.length, section.heading).toBeGreaterThan(0);
      // The component keys list entries by their text: duplicates would collide.
      for (const list of [section.paragraphs, section.items, section.after]) {
        if (list) expect(new Set(list).size, section.heading).toBe(list.length);
      }
    }
    const headings = doc.sections.map((section) => section.heading);
    expect(new Set(headings).size).toBe(headings.length);
  });

  it('uses only the placeholders the page fills in and never writes the brand literally', () => {
    for (const text of [...strings(en), ...strings(fr)]) {
      for (const name of placeholders(text)) expect(ALLOWED_PLACEHOLDERS, text).toContain(name);
      expect(text).not.toMatch(/skanova/i);
      expect(text.trim()).toBe(text);
      expect(text).not.toBe('');
    }
  });

  it('shows the same 2025 last-updated date in both languages', () => {
    const enDate = isoDate(en.updated, 'en');
    expect(enDate).toMatch(/^2025-\d\d-\d\d$/);
    expect(isoDate(fr.updated, 'fr')).toBe(enDate);
  });
});

describe('privacy policy', () => {
  const findSection = (doc: LegalDocument, heading: RegExp) =>
    doc.sections.find((section) => heading.test(section.heading));
  const headings = {
    en: {
      facial: /^facial data$/i,
      retention: /retention/i,
      cookies: /cookies/i,
      contact: /^contact$/i,
      children: /children/i,
    },
    fr: {
      facial: /^données faciales$/i,
      retention: /conservation/i,
      cookies: /cookies/i,
      contact: /^contact$/i,
      children: /enfants/i,
    },
  };

  it.each(['en', 'fr'] as const)('covers every subject of the spec in %s', (lang) => {
    const doc = documents.privacy[lang];
    // collection, use, disclosure, security, rights, facial data, children, changes, retention,
    // international transfers, cookies, contact
    expect(doc.sections).toHaveLength(12);
    for (const heading of Object.values(headings[lang]))
      expect(findSection(doc, heading), String(heading)).toBeDefined();
  });

  it.each(['en', 'fr'] as const)('states the retention periods in %s', (lang) => {
    const doc = documents.privacy[lang];
    const retention = sectionText(findSection(doc, headings[lang].retention));
    for (const figure of RETENTION_FIGURES[lang]) expect(retention).toContain(figure);
    expect(retention).toMatch(lang === 'en' ? /keyed hash/ : /empreinte à clé secrète/);
  });

  it('has a facial-data section with its five parts in both languages', () => {
    const parts = {
      en: [/^What we collect:/, /^How we use it:/, /^Sharing:/, /^Retention:/, /^Your rights:/],
      fr: [/^Ce que nous collectons\s:/, /^Utilisation\s:/, /^Partage\s:/, /^Conservation\s:/, /^Vos droits\s:/],
    };
    for (const lang of ['en', 'fr'] as const) {
      const facial = findSection(documents.privacy[lang], headings[lang].facial);
      expect(facial?.items).toHaveLength(parts[lang].length);
      parts[lang].forEach((part, index) => expect(facial?.items?.[index]).toMatch(part));
      const text = sectionText(facial);
      expect(text).toMatch(lang === 'en' ? /never sold/ : /jamais vendues/);
      expect(text).toContain(lang === 'en' ? '12 months' : '12 mois');
      expect(text).toContain(lang === 'en' ? '30 days' : '30 jours');
    }
  });

  it('states the cookie lifetimes and that measurement needs consent', () => {
    for (const lang of ['en', 'fr'] as const) {
      const cookies = sectionText(findSection(documents.privacy[lang], headings[lang].cookies));
      expect(cookies).toContain(lang === 'en' ? '90 days' : '90 jours');
      expect(cookies).toContain(lang === 'en' ? '30 days' : '30 jours');
      expect(cookies).toMatch(
        lang === 'en' ? /only if you click "Accept"/ : /que si vous cliquez sur «\s?Accepter\s?»/,
      );
    }
  });

  it('gives the minimum ages and the contact details', () => {
    for (const lang of ['en', 'fr'] as const) {
      const doc = documents.privacy[lang];
      const children = sectionText(findSection(doc, headings[lang].children));
      expect(children).toMatch(/\b13\b/);
      expect(children).toMatch(/\b18\b/);
      const contact = sectionText(findSection(doc, headings[lang].contact));
      for (const needle of ['{{dpoEmail}}', '{{companyAddress}}', 'CNIL']) expect(contact).toContain(needle);
    }
  });
});

describe('GDPR page', () => {
  it.each(['en', 'fr'] as const)('has exactly 11 sections in %s', (lang) => {
    expect(documents.rgpd[lang].sections).toHaveLength(11);
  });

  it('gives the controller and DPO first and the CNIL complaint last', () => {
    for (const lang of ['en', 'fr'] as const) {
      const sections = documents.rgpd[lang].sections;
      const first = sectionText(sections[0]);
      expect(first).toContain('{{dpoEmail}}');
      expect(first).toContain('{{companyAddress}}');
      expect(sectionText(sections[10])).toContain('CNIL');
    }
  });

  it('names the four legal bases, with explicit consent under Art. 9(2)(a) for facial data', () => {
    const legalBases = {
      en: [/contract/i, /Art\. 9\(2\)\(a\)/, /legitimate interest/i, /legal obligation/i],
      fr: [/contrat/i, /art\. 9\.2\.a/, /intérêt légitime/i, /obligation légale/i],
    };
    for (const lang of ['en', 'fr'] as const) {
      const text = sectionText(documents.rgpd[lang].sections[3]);
      for (const basis of legalBases[lang]) expect(text).toMatch(basis);
    }
  });

  it('lists the retention periods and every right, including post-mortem directives', () => {
    const rights = {
      en: [
        /access/i,
        /rectification/i,
        /erasure/i,
        /restriction/i,
        /portability/i,
        /object/i,
        /withdraw/i,
        /post-mortem/i,
      ],
      fr: [
        /accès/i,
        /rectification/i,
        /effacement/i,
        /limitation/i,
        /portabilité/i,
        /opposition/i,
        /retirer/i,
        /post-mortem/i,
      ],
    };
    for (const lang of ['en', 'fr'] as const) {
      const sections = documents.rgpd[lang].sections;
      const retention = sectionText(sections[6]);
      for (const figure of RETENTION_FIGURES[lang]) expect(retention).toContain(figure);
      const rightsText = sectionText(sections[7]);
      for (const right of rights[lang]) expect(rightsText).toMatch(right);
      expect(sectionText(sections[8])).toMatch(lang === 'en' ? /within one month/ : /délai d'un mois/);
    }
  });
});
