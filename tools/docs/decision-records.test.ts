import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The decision records (docs/decisions/) as docs/decisions/021-re-export-modules.md and its neighbours
// write them: a title with the record's number, then a date and a status before the first section. A
// decision that changes is superseded by a new record rather than rewritten: the new record's status
// says which record it supersedes, and the old one's says by which — both ways, so neither is missed.

const DECISIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/decisions');

interface DecisionRecord {
  file: string;
  number: string;
  text: string;
  /** The paragraph after "Status:", its lines joined. */
  status: string | undefined;
  date: string | undefined;
}

const records: DecisionRecord[] = readdirSync(DECISIONS)
  .filter((file) => file.endsWith('.md'))
  .sort()
  .map((file) => {
    const text = readFileSync(path.join(DECISIONS, file), 'utf8');
    const head = text.split(/^## /m)[0]!;
    const paragraph = (label: string) =>
      head
        .split(/\n\s*\n/)
        .find((block) => block.startsWith(`${label}: `))
        ?.slice(label.length + 2)
        .replace(/\s*\n\s*/g, ' ')
        .trim();
    return { file, number: file.slice(0, 3), text, status: paragraph('Status'), date: paragraph('Date') };
  });

/** The record numbers named as "ADR NNN" in a part of a status. */
const named = (part: string | undefined) => [...(part ?? '').matchAll(/ADR (\d{3})/g)].map((match) => match[1]!);

/** "Supersedes … ADR 001 …" up to the next sentence that says "Superseded". */
const supersedes = (status: string | undefined) => named(/Supersedes\b(.*?)(?=Superseded|$)/.exec(status ?? '')?.[1]);
/** "Superseded … by ADR 020 … and by ADR 021 …" up to the next "Supersedes". */
const supersededBy = (status: string | undefined) => named(/Superseded\b(.*?)(?=Supersedes|$)/.exec(status ?? '')?.[1]);

describe('the decision records', () => {
  it('are numbered NNN-slug.md, once each, and titled with their number', () => {
    for (const record of records) {
      expect(record.file).toMatch(/^\d{3}-[a-z0-9-]+\.md$/);
      expect(record.text.split('\n')[0], record.file).toMatch(new RegExp(`^# ${record.number} — \\S`));
    }
    const numbers = records.map((record) => record.number);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('each carry a date and a status before their first section', () => {
    for (const record of records) {
      expect(record.date, `${record.file}: "Date: YYYY-MM-DD"`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(Number.isNaN(Date.parse(record.date!)), record.file).toBe(false);
      expect(record.status, `${record.file}: "Status: …"`).toMatch(/^(proposed|accepted|deprecated|superseded)\b/i);
    }
  });

  it('name supersessions on both sides, between records that exist', () => {
    const byNumber = new Map(records.map((record) => [record.number, record]));
    for (const record of records) {
      for (const older of supersedes(record.status)) {
        expect(byNumber.has(older), `${record.file} supersedes a missing ADR ${older}`).toBe(true);
        expect(
          supersededBy(byNumber.get(older)!.status),
          `ADR ${older} does not say it is superseded by ${record.number}`,
        ).toContain(record.number);
        expect(Number(older) < Number(record.number), `${record.file} supersedes a later record`).toBe(true);
      }
      for (const newer of supersededBy(record.status)) {
        expect(byNumber.has(newer), `${record.file} is superseded by a missing ADR ${newer}`).toBe(true);
        expect(
          supersedes(byNumber.get(newer)!.status),
          `ADR ${newer} does not say it supersedes ${record.number}`,
        ).toContain(record.number);
      }
    }
  });
});
