import fc from 'fast-check';
import { latestPayday } from '@skanova/shared/payouts/payday';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveDueCommissions } from '../src/domain/commission-approval.ts';
import { reverseConversion } from '../src/domain/reverse-conversion.ts';
import { decideReviewCase } from '../src/features/admin/review-cases.ts';
import {
  STATS_FROM_ROWS_SQL,
  STATS_SQL,
  loadAffiliateStats,
  loadStatsWith,
  readStatsRow,
} from '../src/features/affiliate/affiliate-stats.ts';
import { runPayouts } from '../src/features/payouts/payout-run.ts';
import { type TestApp, createTestApp } from './helpers/app.ts';
import { insertCode, insertConversion } from './helpers/affiliates.ts';
import { createPayee, insertAdjustment } from './fixtures/payouts.ts';
import { markOnePayout, raiseClickBurst, recordInstallRenewal, recordPurchase } from './fixtures/ledger.ts';

// The dashboard's totals (migrations/0016_dashboard_totals.sql, docs/product/money.md#statistics): for
// any sequence of the programme's events and of direct writes to the conversions, the statistics read
// from the totals equal, figure for figure, the statistics summed from the rows (the statement as it was
// before the totals, STATS_FROM_ROWS_SQL), seen at any time around the sequence's end — across the
// payout cut-off (the 1st, 00:00 UTC), the payday (the 15th) and the last 30 days' first day; and every
// total equals its rows.

const DAY_MS = 24 * 60 * 60 * 1000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Step =
  | { kind: 'purchase'; affiliate: number; code: number }
  | { kind: 'renewal'; pick: number }
  | { kind: 'insert'; affiliate: number; code: number; daysAgo: number; status: 'pending' | 'approved' | 'reversed' }
  | { kind: 'move'; pick: number; code: number; days: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'wait'; days: number; hours: number }
  | { kind: 'first'; hours: number }
  | { kind: 'refund'; pick: number }
  | { kind: 'payday' }
  | { kind: 'mark'; pick: number; status: 'sent' | 'paid' | 'failed' }
  | { kind: 'adjust'; affiliate: number; cents: number }
  | { kind: 'hold'; affiliate: number }
  | { kind: 'decide'; affiliate: number; decision: 'approve' | 'reject' };

const AFFILIATES = 2;
/** Each affiliate's codes; a step's `code` beyond them is a conversion without a code. */
const CODES = 2;
const affiliate = fc.nat(AFFILIATES - 1);
const code = fc.nat(CODES);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('purchase' as const), affiliate, code }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('renewal' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('insert' as const),
      affiliate,
      code,
      daysAgo: fc.integer({ min: -2, max: 60 }),
      status: fc.constantFrom('pending' as const, 'approved' as const, 'reversed' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('move' as const),
      pick: fc.nat(),
      code,
      days: fc.integer({ min: -40, max: 40 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('wait' as const),
      days: fc.integer({ min: 0, max: 40 }),
      hours: fc.integer({ min: 0, max: 23 }),
    }),
  },
  // To the next 1st of a month, the day of a payout cut-off: money that becomes payable that day is
  // paid on the payday after next.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('first' as const), hours: fc.integer({ min: 0, max: 23 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('refund' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('payday' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('mark' as const),
      pick: fc.nat(),
      status: fc.constantFrom('sent' as const, 'paid' as const, 'failed' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('adjust' as const),
      affiliate,
      cents: fc.integer({ min: -3000, max: 3000 }).filter((cents) => cents !== 0),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('hold' as const), affiliate }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('decide' as const),
      affiliate,
      decision: fc.constantFrom('approve' as const, 'reject' as const),
    }),
  },
);

/** Instants around `now` at which both reads are compared: the edges the totals' days must respect. */
function instantsAround(now: Date, offsetsMs: readonly number[]): Date[] {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const edges = [-1, 0, 1].flatMap((shift) => [Date.UTC(year, month + shift, 1), Date.UTC(year, month + shift, 15)]);
  const today = Date.UTC(year, month, now.getUTCDate());
  return [
    now.getTime(),
    ...edges.flatMap((edge) => [edge - 1, edge]),
    today - 30 * DAY_MS,
    today - 30 * DAY_MS - 1,
    ...offsetsMs.map((offset) => now.getTime() + offset),
  ].map((ms) => new Date(ms));
}

/** Each table of totals, and the same figures summed from the rows (key columns first, then figures). */
const TOTALS_AND_ROWS: [kept: string, summed: string][] = [
  [
    'SELECT affiliate_id, pending, payable, held, in_payout, paid FROM affiliate_ledger_totals',
    `SELECT affiliate_id,
            sum(CASE WHEN to_account = 'pending' THEN amount_cents WHEN from_account = 'pending' THEN -amount_cents ELSE 0 END) AS pending,
            sum(CASE WHEN to_account = 'payable' THEN amount_cents WHEN from_account = 'payable' THEN -amount_cents ELSE 0 END) AS payable,
            sum(CASE WHEN to_account = 'held' THEN amount_cents WHEN from_account = 'held' THEN -amount_cents ELSE 0 END) AS held,
            sum(CASE WHEN to_account = 'in-payout' THEN amount_cents WHEN from_account = 'in-payout' THEN -amount_cents ELSE 0 END) AS in_payout,
            sum(CASE WHEN to_account = 'paid' THEN amount_cents WHEN from_account = 'paid' THEN -amount_cents ELSE 0 END) AS paid
     FROM ledger_entries GROUP BY affiliate_id`,
  ],
  [
    "SELECT affiliate_id, to_char(day, 'YYYY-MM-DD'), payable FROM affiliate_payable_days",
    `SELECT affiliate_id, to_char((payable_from AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD'),
            sum(CASE WHEN to_account = 'payable' THEN amount_cents ELSE -amount_cents END)
     FROM ledger_entries WHERE payable_from IS NOT NULL AND 'payable' IN (from_account, to_account) GROUP BY 1, 2`,
  ],
  [
    'SELECT affiliate_id, referral_code_id, qualified FROM affiliate_code_conversion_totals',
    `SELECT affiliate_id, coalesce(referral_code_id, 0), count(*) FROM conversions
     WHERE status <> 'reversed' AND kind = 'first-purchase' GROUP BY 1, 2`,
  ],
  [
    "SELECT affiliate_id, to_char(day, 'YYYY-MM-DD'), qualified FROM affiliate_conversion_days",
    `SELECT affiliate_id, to_char((occurred_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD'), count(*) FROM conversions
     WHERE status <> 'reversed' AND kind = 'first-purchase' GROUP BY 1, 2`,
  ],
];

/** Rows as sorted lines of text; a row whose figures are all zero is the same as no row. */
async function linesOf(sql: string, figures: number): Promise<string[]> {
  const { rows } = await t.database.sql.query<Record<string, unknown>>(sql);
  return rows
    .map((row) => Object.values(row).map((value) => String(Number.isNaN(Number(value)) ? value : Number(value))))
    .filter((values) => values.slice(-figures).some((value) => value !== '0'))
    .map((values) => values.join(' '))
    .sort();
}

/** Every table of totals, compared with its rows. */
async function totalsAgainstRows() {
  return Promise.all(
    TOTALS_AND_ROWS.map(async ([kept, summed], index) => {
      const figures = index === 0 ? 5 : 1;
      return { kept: await linesOf(kept, figures), summed: await linesOf(summed, figures) };
    }),
  );
}

async function bothReads(affiliateId: string, at: Date) {
  const saved = t.clock.now;
  t.clock.now = at;
  try {
    // The statement's own figures (a payable amount under the minimum payout shows as 0 in the answer)
    // and the answer.
    const figures = async (sql: string, name: string) => {
      const row = await readStatsRow(t.context, affiliateId, sql, name);
      return {
        ...row,
        codes: typeof row.codes === 'string' ? (JSON.parse(row.codes) as unknown) : row.codes,
        ...Object.fromEntries(
          (
            [
              'total_cents',
              'unpaid_cents',
              'approved_unpaid_cents',
              'payable_cents',
              'under_review_cents',
              'minimum_cents',
            ] as const
          ).map((key) => [key, Number(row[key])]),
        ),
      };
    };
    return {
      totals: {
        answer: await loadAffiliateStats(t.context, affiliateId),
        figures: await figures(STATS_SQL, 'affiliate-stats'),
      },
      rows: {
        answer: await loadStatsWith(t.context, affiliateId, STATS_FROM_ROWS_SQL, 'affiliate-stats-from-rows'),
        figures: await figures(STATS_FROM_ROWS_SQL, 'affiliate-stats-from-rows'),
      },
    };
  } finally {
    t.clock.now = saved;
  }
}

const OPERATOR = { userId: 'totals-operator', email: 'operator@example.com', role: 'admin' as const };
let signalCount = 0;
let era = 0;

describe('the dashboard totals', () => {
  it('give the figures summed from the rows, for any sequence of events, at any time', async () => {
    await t.database.sql.query(
      "UPDATE review_policies SET action = 'hold' WHERE group_id = 'default' AND signal = 'click-burst'",
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 5, maxLength: 30 }),
        fc.array(fc.integer({ min: -70 * DAY_MS, max: 70 * DAY_MS }), { minLength: 2, maxLength: 4 }),
        async (steps, offsetsMs) => {
          // Each run in its own years: paydays already run stay run.
          t.clock.now = new Date(Date.UTC(2050 + 4 * era++, 0, 3, 12));
          const affiliates = await Promise.all(
            Array.from({ length: AFFILIATES }, () => createPayee(t, 'paypal').then((payee) => payee.affiliateId)),
          );
          const codes = await Promise.all(
            affiliates.map((id) =>
              Promise.all(Array.from({ length: CODES }, () => insertCode(t, id).then((inserted) => inserted.id))),
            ),
          );
          const codeOf = (who: number, which: number) => codes[who]![which] ?? null;
          const bought: { id: number; installId: string }[] = [];
          /** Conversions inserted directly: nothing refers to them, so they may be deleted. */
          const inserted: number[] = [];
          const all: number[] = [];

          for (const next of steps) {
            if (next.kind === 'purchase') {
              const purchase = await recordPurchase(t, affiliates[next.affiliate]!, {
                referralCodeId: codeOf(next.affiliate, next.code),
              });
              if (purchase) {
                bought.push({ id: purchase.conversionId, installId: purchase.installId });
                all.push(purchase.conversionId);
              }
            } else if (next.kind === 'renewal' && bought.length > 0) {
              await recordInstallRenewal(t, bought[next.pick % bought.length]!.installId);
            } else if (next.kind === 'insert') {
              const occurredAt = new Date(t.clock.now.getTime() - next.daysAgo * DAY_MS);
              const id = await insertConversion(t, affiliates[next.affiliate]!, {
                codeId: codeOf(next.affiliate, next.code),
                status: next.status,
                occurredAt,
                approvedAt: next.status === 'approved' ? occurredAt : null,
              });
              inserted.push(id);
              all.push(id);
            } else if (next.kind === 'move' && all.length > 0) {
              // Another code of its affiliate (or none), another time: the totals follow the row.
              const id = all[next.pick % all.length]!;
              await t.database.sql.query(
                `UPDATE conversions c SET occurred_at = c.occurred_at + make_interval(days => $2),
                        referral_code_id = (SELECT (array_agg(r.id ORDER BY r.id))[$3] FROM referral_codes r
                                            WHERE r.affiliate_id = c.affiliate_id)
                 WHERE c.id = $1`,
                [id, next.days, next.code + 1],
              );
            } else if (next.kind === 'delete' && inserted.length > 0) {
              const id = inserted.splice(next.pick % inserted.length, 1)[0]!;
              all.splice(all.indexOf(id), 1);
              await t.database.sql.query(
                'DELETE FROM conversions WHERE id = $1 AND payout_id IS NULL AND NOT review_hold',
                [id],
              );
            } else if (next.kind === 'wait') {
              t.clock.now = new Date(t.clock.now.getTime() + next.days * DAY_MS + next.hours * 3_600_000);
              await approveDueCommissions(t.context);
            } else if (next.kind === 'first') {
              const now = t.clock.now;
              t.clock.now = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, next.hours));
              await approveDueCommissions(t.context);
            } else if (next.kind === 'refund' && bought.length > 0) {
              await reverseConversion(t.context, {
                conversionId: bought[next.pick % bought.length]!.id,
                reason: 'refund',
                actor: 'revenuecat',
              });
            } else if (next.kind === 'payday') {
              await runPayouts(t.context, latestPayday(t.clock.now));
            } else if (next.kind === 'mark') {
              await markOnePayout(t, affiliates, next.pick, next.status);
            } else if (next.kind === 'adjust') {
              await insertAdjustment(t, affiliates[next.affiliate]!, { cents: next.cents });
            } else if (next.kind === 'hold') {
              await raiseClickBurst(t, affiliates[next.affiliate]!, `totals-burst:${++signalCount}`);
            } else if (next.kind === 'decide') {
              const { rows } = await t.database.sql.query<{ id: string }>(
                "SELECT id::text AS id FROM review_cases WHERE affiliate_id = $1 AND status = 'open'",
                [affiliates[next.affiliate]!],
              );
              if (rows[0]) {
                await decideReviewCase(t.context, OPERATOR, {
                  caseId: rows[0].id,
                  decision: next.decision,
                  reason: 'checked',
                });
              }
            }
          }

          for (const affiliateId of affiliates) {
            for (const at of instantsAround(t.clock.now, offsetsMs)) {
              const { totals, rows } = await bothReads(affiliateId, at);
              expect(totals, `${affiliateId} at ${at.toISOString()}`).toEqual(rows);
            }
          }
          for (const { kept, summed } of await totalsAgainstRows()) expect(kept).toEqual(summed);
        },
      ),
      {
        numRuns: 12,
        // Besides the random ones: money that becomes payable on each side of a cut-off and is paid,
        // a conversion moved to another code and day, and one deleted; credits payable from a cut-off's day.
        examples: [
          [
            [
              { kind: 'purchase', affiliate: 0, code: 0 },
              { kind: 'purchase', affiliate: 0, code: 1 },
              { kind: 'insert', affiliate: 1, code: 2, daysAgo: 29, status: 'approved' },
              { kind: 'wait', days: 27, hours: 20 },
              { kind: 'purchase', affiliate: 1, code: 1 },
              { kind: 'wait', days: 3, hours: 0 },
              { kind: 'move', pick: 1, code: 0, days: -31 },
              { kind: 'delete', pick: 0 },
              { kind: 'wait', days: 16, hours: 0 },
              { kind: 'payday' },
              { kind: 'mark', pick: 0, status: 'sent' },
              { kind: 'refund', pick: 1 },
              { kind: 'adjust', affiliate: 0, cents: -150 },
            ],
            [DAY_MS, -DAY_MS],
          ],
          [
            [
              { kind: 'purchase', affiliate: 0, code: 0 },
              { kind: 'first', hours: 9 },
              { kind: 'adjust', affiliate: 1, cents: 300 },
              { kind: 'purchase', affiliate: 1, code: 0 },
              { kind: 'wait', days: 31, hours: 0 },
              { kind: 'adjust', affiliate: 0, cents: 250 },
            ],
            [-DAY_MS, -40 * DAY_MS],
          ],
        ],
      },
    );
  });
});
