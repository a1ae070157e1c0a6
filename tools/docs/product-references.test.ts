import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The code cites the product's rules by a file and a heading of this repository (docs/product/ and its
// neighbours), never a document a newcomer cannot open: the original specification and briefs, or a
// numbered ticket of the tracker. And what it cites exists: each `docs/….md` path, and the heading after
// its `#`, as GitHub makes an anchor of it.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SELF = path.relative(ROOT, fileURLToPath(import.meta.url));

/** Folders that hold no source: dependencies, builds, run-time data and reports. */
const SKIPPED = new Set(['node_modules', 'build', 'dist', 'coverage', 'data', 'test-results', 'playwright-report']);
const TEXT = /\.(ts|tsx|js|mjs|cjs|md|json|ya?ml|sh|css|html|sql)$|^(Dockerfile|run)$/;

function* walk(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name) || entry.name.startsWith('build-')) continue;
    if (entry.name.startsWith('.') && entry.name !== '.ci') continue;
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (TEXT.test(entry.name) && entry.name !== 'package-lock.json') yield full;
  }
}

const files = [...walk(ROOT)]
  .map((full) => ({ file: path.relative(ROOT, full), text: readFileSync(full, 'utf8') }))
  .filter(({ file }) => file !== SELF);

/** The documents outside the repository the code once cited, as they were written. */
const OUTSIDE: [string, RegExp][] = [
  ['the architecture brief', /\bBRIEF\b|\bbrief §/],
  ['the web app brief', /SKIN-APP/],
  ['the product specification', /product-spec\b|\b[Ss]pec(ification)? ?§/],
  ['a ticket of the tracker', /\b[Ii]ssue #?\d+|\b[Ii]ssue "[A-Z]/],
];

/** Where a line of a file matches. */
const lines = (text: string, pattern: RegExp) =>
  text.split('\n').flatMap((line, index) => (pattern.test(line) ? [`${index + 1}: ${line.trim().slice(0, 120)}`] : []));

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const anchors = new Map<string, Set<string>>();
function anchorsOf(doc: string): Set<string> {
  let known = anchors.get(doc);
  if (!known) {
    const text = readFileSync(path.join(ROOT, doc), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
    known = new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchor(match[1]!)));
    anchors.set(doc, known);
  }
  return known;
}

/** Every `docs/….md` path (with its `#anchor`, if any) a file cites, and the relative links of docs/. */
function citations(file: string, text: string): { doc: string; hash: string | undefined; where: string }[] {
  const found = [...text.matchAll(/\bdocs\/[\w./-]*?\.md(?:#([\w-]+))?/g)].map((match) => ({
    doc: match[0].split('#')[0]!,
    hash: match[1],
    where: match[0],
  }));
  if (file.startsWith('docs/') && file.endsWith('.md')) {
    for (const match of text.matchAll(/\]\(([\w./-]+\.md)(?:#([\w-]+))?\)/g)) {
      const doc = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1]!));
      found.push({ doc, hash: match[2], where: match[0] });
    }
  }
  return found;
}

describe('references to documents', () => {
  it('name no document outside the repository', () => {
    const outside = files.flatMap(({ file, text }) =>
      OUTSIDE.flatMap(([what, pattern]) => lines(text, pattern).map((line) => `${file}:${line} (${what})`)),
    );
    expect(outside, 'cite docs/product/ or another document of the repository instead').toEqual([]);
  });

  it('name documents of the repository that exist, and headings they have', () => {
    const missing = files.flatMap(({ file, text }) =>
      citations(file, text).flatMap(({ doc, hash, where }) => {
        if (!existsSync(path.join(ROOT, doc))) return [`${file}: ${where} (no such file)`];
        if (hash !== undefined && !anchorsOf(doc).has(hash)) return [`${file}: ${where} (no such heading)`];
        return [];
      }),
    );
    expect(missing).toEqual([]);
  });

  it('find the docs/product/ reference and cited headings in it', () => {
    expect(existsSync(path.join(ROOT, 'docs/product/README.md'))).toBe(true);
    expect(anchorsOf('docs/product/money.md').has('payment-timing')).toBe(true);
    expect(files.some(({ text }) => /docs\/product\/[\w-]+\.md#/.test(text))).toBe(true);
  });
});
