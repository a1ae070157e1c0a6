import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every page's <title> (each `meta.title` in the translations) follows one pattern in both
// languages: it names the brand, and a title of two parts joins them with " — " (an em dash between
// spaces), e.g. "Privacy policy — {{brand}}" — never an en dash, a hyphen or a bar.

const I18N_DIR = path.dirname(fileURLToPath(import.meta.url));
const LANGUAGES = ['fr', 'en'];

interface PageTitle {
  where: string;
  title: string;
}

function titlesIn(value: unknown, where: string, found: PageTitle[] = []): PageTitle[] {
  if (typeof value !== 'object' || value === null) return found;
  const meta = (value as { meta?: { title?: unknown } }).meta;
  if (typeof meta?.title === 'string') found.push({ where: `${where}.meta.title`, title: meta.title });
  for (const [key, child] of Object.entries(value)) titlesIn(child, `${where}.${key}`, found);
  return found;
}

const titles = LANGUAGES.flatMap((lang) =>
  readdirSync(path.join(I18N_DIR, lang))
    .filter((file) => file.endsWith('.json'))
    .flatMap((file) =>
      titlesIn(JSON.parse(readFileSync(path.join(I18N_DIR, lang, file), 'utf8')), `${lang}/${file.slice(0, -5)}`),
    ),
);

describe('page titles', () => {
  it('are found for the pages of both languages', () => {
    const pages = (lang: string) =>
      titles.filter((entry) => entry.where.startsWith(`${lang}/`)).map(({ where }) => where.slice(3));
    expect(pages('fr').length).toBeGreaterThanOrEqual(15);
    expect(pages('en')).toEqual(pages('fr'));
    for (const page of ['privacy.meta.title', 'rgpd.meta.title', 'support.meta.title', 'terms.meta.title'])
      expect(pages('en')).toContain(page);
  });

  it.each(titles)('$where names the brand and separates its parts with " — "', ({ title }) => {
    expect(title).toContain('{{brand}}');
    expect(title).not.toMatch(/\s[–\-|·:]\s/);
    const parts = title.split(' — ');
    expect(parts.length).toBeLessThanOrEqual(2);
    for (const part of parts) expect(part.trim()).toBe(part);
  });
});
