import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VisitRow } from '../src/features/landing/visit-batch.ts';
import { type StoredVisit, VisitWriter, WRITER_TUNING } from '../src/features/landing/visit-writer.ts';
import type { Database } from '../src/db/client.ts';
import { createTestDatabase } from './helpers/database.ts';
import { visitRow } from './helpers/visits.ts';

// The group-commit writer on its own: batching, same-batch de-duplication, one bad row failing alone,
// closing with visits still queued, and the review of each committed batch before its answers.

const CODE = 'WRTR2345';
const NOW = new Date('2026-11-22T10:20:00.000Z');

/** A visit to /ref/CODE at NOW. */
function row(overrides: Partial<VisitRow> = {}): VisitRow {
  return visitRow({ at: NOW, type: 'ref', code: CODE, path: `/ref/${CODE}`, ...overrides });
}

/** A writer whose statements are counted. */
function countingWriter(database: Database, tuning: { maxInFlight?: number; delayMs?: number } = {}) {
  const statements: number[] = [];
  const writer = new VisitWriter({
    sql: {
      query: (text, params) => {
        statements.push((params?.[0] as unknown[]).length);
        return database.sql.query(text, params);
      },
    },
    ...WRITER_TUNING[database.kind],
    ...tuning,
  });
  return { writer, statements };
}

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
  await database.sql.query(
    `WITH owner AS (INSERT INTO affiliates (id) VALUES ('affiliate-1') ON CONFLICT DO NOTHING) INSERT INTO referral_codes (code, affiliate_id) VALUES ($1, 'affiliate-1')`,
    [CODE],
  );
});
afterAll(() => database.close());

describe('group commit', () => {
  it('stores visits queued together with one statement', async () => {
    const { writer, statements } = countingWriter(database);
    const outcomes = await Promise.all(Array.from({ length: 30 }, () => writer.record(row())));
    expect(outcomes.every((outcome) => outcome.counted)).toBe(true);
    expect(statements).toEqual([30]);
    await writer.close();
  });

  it('counts only the first of two visits of one visitor in the same batch', async () => {
    const { writer, statements } = countingWriter(database);
    const twin = { visitorKey: 'same-batch-visitor' };
    const [first, second] = await Promise.all([writer.record(row(twin)), writer.record(row(twin))]);
    expect(statements).toEqual([2]);
    expect([first?.counted, second?.counted]).toEqual([true, false]);
    const { rows } = await database.sql.query<{ counted: boolean }>(
      'SELECT counted FROM clicks WHERE visitor_key = $1 ORDER BY id',
      ['same-batch-visitor'],
    );
    expect(rows.map((r) => r.counted)).toEqual([true, false]);
    await writer.close();
  });

  it('fails only the bad row of a batch', async () => {
    const { writer } = countingWriter(database);
    const existing = row();
    await writer.record(existing);
    // A duplicate tracking id violates its unique key: the whole batch statement fails, then the
    // rows are retried one by one.
    const results = await Promise.allSettled([
      writer.record(row()),
      writer.record({ ...row(), trackingId: existing.trackingId }),
      writer.record(row()),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    await writer.close();
  });

  it('commits what is queued when it closes, then refuses new visits', async () => {
    const { writer, statements } = countingWriter(database, { delayMs: 60_000 });
    const pending = Array.from({ length: 5 }, () => row());
    const answers = pending.map((r) => writer.record(r));
    await writer.close();
    expect((await Promise.all(answers)).map((a) => a.trackingId)).toEqual(pending.map((r) => r.trackingId));
    expect(statements).toEqual([5]);
    await expect(writer.record(row())).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('flushes what queued during a commit as the next batch', async () => {
    const { writer, statements } = countingWriter(database, { maxInFlight: 1, delayMs: 1 });
    const first = writer.record(row());
    await new Promise((resolve) => setTimeout(resolve, 5)); // the first batch is committing
    const rest = Array.from({ length: 10 }, () => writer.record(row()));
    await Promise.all([first, ...rest]);
    expect(statements.reduce((sum, n) => sum + n, 0)).toBe(11);
    expect(statements.length).toBeLessThanOrEqual(3);
    await writer.close();
  });
});

describe('the review of a batch', () => {
  it('sees each committed batch once, with its outcomes, before any of its visits is answered', async () => {
    const reviewed: { visits: StoredVisit[]; storedRows: number; answeredBefore: number }[] = [];
    let answered = 0;
    const writer = new VisitWriter({
      sql: database.sql,
      ...WRITER_TUNING[database.kind],
      review: async (visits) => {
        const { rows } = await database.sql.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM clicks WHERE tracking_id = ANY ($1::text[])',
          [visits.map((visit) => visit.row.trackingId)],
        );
        reviewed.push({ visits: [...visits], storedRows: rows[0]?.n ?? 0, answeredBefore: answered });
      },
    });
    const twin = { visitorKey: 'reviewed-visitor' };
    const rows = [row(twin), row(twin), row()];
    await Promise.all(rows.map((r, i) => writer.record(r, { dataCentre: i === 2 }).then(() => (answered += 1))));
    expect(reviewed).toHaveLength(1);
    // Committed (its rows readable by another statement), and nothing answered yet.
    expect(reviewed[0]).toMatchObject({ storedRows: 3, answeredBefore: 0 });
    expect(reviewed[0]?.visits.map((v) => [v.row.trackingId, v.outcome.counted, v.dataCentre])).toEqual([
      [rows[0]?.trackingId, true, false],
      [rows[1]?.trackingId, false, false],
      [rows[2]?.trackingId, true, true],
    ]);
    await writer.close();
  });

  it('answers the visits of a batch whose review fails', async () => {
    const writer = new VisitWriter({
      sql: database.sql,
      ...WRITER_TUNING[database.kind],
      review: () => Promise.reject(new Error('review down')),
    });
    const outcomes = await Promise.all([writer.record(row()), writer.record(row())]);
    expect(outcomes.map((outcome) => outcome.counted)).toEqual([true, true]);
    await writer.close();
  });
});
