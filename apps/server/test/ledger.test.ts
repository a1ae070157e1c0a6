import fc from 'fast-check';
import {
  PREMIUM_COMMISSION_CENTS,
  PREMIUM_THRESHOLD,
  STANDARD_COMMISSION_CENTS,
} from '@skanova/shared/affiliate/programme';
import { latestPayday } from '@skanova/shared/payouts/payday';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveDueCommissions } from '../src/domain/commission-approval.ts';
import { reconcileLedger } from '../src/domain/ledger.ts';
import { reverseConversion } from '../src/domain/reverse-conversion.ts';
import { decideReviewCase } from '../src/features/admin/review-cases.ts';
import { markPayouts } from '../src/features/payouts/payout-lifecycle.ts';
import { runPayouts } from '../src/features/payouts/payout-run.ts';
import { type TestApp, createTestApp } from './helpers/app.ts';
import { insertConversions } from './helpers/affiliates.ts';
import { createPayee, insertAdjustment } from './fixtures/payouts.ts';
import {
  markOnePayout,
  paidOtherThanOnce,
  raiseClickBurst,
  recordPurchase,
  totalsBoth as totalsOf,
} from './fixtures/ledger.ts';

// The ledger (docs/product/money.md#the-ledger): every movement of an affiliate's money is an entry the
// database appends in the statement that moves it; balances are sums of the entries, and they
// reconcile to the cent with the rows and the payouts whatever happens, in whatever order.

const DAY_MS = 24 * 60 * 60 * 1000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A first paid subscription of a new app user, recorded as the RevenueCat webhook records it. */
const purchase = (affiliateId: string) => recordPurchase(t, affiliateId);
const totalsBoth = (affiliateId: string) => totalsOf(t, affiliateId);

async function entriesOf(conversionId: number) {
  const { rows } = await t.database.sql.query<{
    kind: string;
    from_account: string;
    to_account: string;
    amount_cents: string | number;
    payout_id: string | null;
  }>(
    `SELECT kind, from_account, to_account, amount_cents, payout_id::text AS payout_id
     FROM ledger_entries WHERE conversion_id = $1 ORDER BY id`,
    [conversionId],
  );
  return rows.map((row) => ({ ...row, amount_cents: Number(row.amount_cents) }));
}

describe('the ledger', () => {
  it('follows a commission through its life, one entry per movement, and explains each', async () => {
    t.clock.now = new Date('2031-03-10T12:00:00.000Z');
    const payee = await createPayee(t, 'paypal');
    await insertConversions(t, payee.affiliateId, 10, {
      status: 'approved',
      occurredAt: new Date('2031-01-05T00:00:00.000Z'),
      approvedAt: new Date('2031-02-04T00:00:00.000Z'),
    });
    const bought = await purchase(payee.affiliateId);
    expect(bought).toMatchObject({ conversionId: expect.any(Number), commissionCents: STANDARD_COMMISSION_CENTS });
    const conversionId = bought!.conversionId;
    expect(await entriesOf(conversionId)).toEqual([
      { kind: 'earned', from_account: 'programme', to_account: 'pending', amount_cents: 200, payout_id: null },
    ]);

    // The rule that priced it, and what it was priced from.
    const { rows: priced } = await t.database.sql.query<{ group_id: string; version: number; pricing: unknown }>(
      `SELECT r.group_id, r.version, c.pricing FROM conversions c JOIN reward_rules r ON r.id = c.rule_id WHERE c.id = $1`,
      [conversionId],
    );
    expect(priced[0]).toEqual({
      group_id: 'default',
      version: 1,
      pricing: { kind: 'flat', ruleVersion: 1, qualifiedBefore: 10, tier: 0 },
    });

    t.clock.now = new Date('2031-04-10T12:00:00.000Z');
    await approveDueCommissions(t.context);
    t.clock.now = new Date('2031-05-15T06:00:00.000Z');
    await runPayouts(t.context, '2031-05-15');
    const { rows: payouts } = await t.database.sql.query<{ id: string; amount_cents: number }>(
      `SELECT id::text AS id, amount_cents::int AS amount_cents FROM payouts WHERE affiliate_id = $1`,
      [payee.affiliateId],
    );
    expect(payouts).toEqual([{ id: expect.any(String), amount_cents: 2200 }]);
    const payoutId = payouts[0]!.id;
    await markPayouts(t.context, { payoutIds: [payoutId], status: 'sent', actor: 'operator' });
    await markPayouts(t.context, { payoutIds: [payoutId], status: 'failed', reason: 'bounced', actor: 'operator' });

    expect(await entriesOf(conversionId)).toEqual([
      { kind: 'earned', from_account: 'programme', to_account: 'pending', amount_cents: 200, payout_id: null },
      { kind: 'approved', from_account: 'pending', to_account: 'payable', amount_cents: 200, payout_id: null },
      { kind: 'scheduled', from_account: 'payable', to_account: 'in-payout', amount_cents: 200, payout_id: payoutId },
      { kind: 'paid', from_account: 'in-payout', to_account: 'paid', amount_cents: 200, payout_id: payoutId },
      { kind: 'payout-failed', from_account: 'paid', to_account: 'in-payout', amount_cents: 200, payout_id: payoutId },
      { kind: 'released', from_account: 'in-payout', to_account: 'payable', amount_cents: 200, payout_id: payoutId },
    ]);

    await reverseConversion(t.context, { conversionId, reason: 'refund', actor: 'revenuecat' });
    expect((await entriesOf(conversionId)).at(-1)).toEqual({
      kind: 'reversed',
      from_account: 'payable',
      to_account: 'programme',
      amount_cents: 200,
      payout_id: null,
    });
    expect(await reconcileLedger(t.database.sql, payee.affiliateId)).toEqual([]);
    const { ledger, rows } = await totalsBoth(payee.affiliateId);
    expect(ledger).toEqual(rows);
    expect(ledger).toMatchObject({ qualified: 10, total_cents: 2000, approved_unpaid_cents: 2000 });
  });

  it('is appended, never changed, and amounts are never rewritten in place', async () => {
    t.clock.now = new Date('2031-06-10T12:00:00.000Z');
    const payee = await createPayee(t, 'paypal');
    const bought = await purchase(payee.affiliateId);
    await expect(
      t.database.sql.query(`UPDATE ledger_entries SET amount_cents = 1 WHERE conversion_id = $1`, [
        bought!.conversionId,
      ]),
    ).rejects.toThrow(/appended/);
    await expect(
      t.database.sql.query(`DELETE FROM ledger_entries WHERE conversion_id = $1`, [bought!.conversionId]),
    ).rejects.toThrow(/appended/);
    await expect(
      t.database.sql.query(`UPDATE conversions SET commission_cents = 5000 WHERE id = $1`, [bought!.conversionId]),
    ).rejects.toThrow(/adjustment/);
    expect(await entriesOf(bought!.conversionId)).toHaveLength(1);
  });

  it('reports an account that does not reconcile, with both figures', async () => {
    t.clock.now = new Date('2031-07-10T12:00:00.000Z');
    const payee = await createPayee(t, 'paypal');
    await purchase(payee.affiliateId);
    expect(await reconcileLedger(t.database.sql, payee.affiliateId)).toEqual([]);
    // A payout whose amount no row makes up: money the books say was paid, the ledger never moved.
    await t.database.sql.query(
      `INSERT INTO payouts (affiliate_id, period_start, period_end, amount_cents, method, method_snapshot, status, scheduled_for)
       VALUES ($1, '2031-06-01', '2031-06-30', 2500, 'paypal', '{}', 'sent', '2031-07-15')`,
      [payee.affiliateId],
    );
    expect(await reconcileLedger(t.database.sql, payee.affiliateId)).toEqual([
      { affiliateId: payee.affiliateId, account: 'paid', source: 'payouts', ledgerCents: 0, expectedCents: 2500 },
    ]);
  });
});

// Any sequence of the programme's events: purchases, holds ending, refunds, paydays, payouts sent,
// paid or failed, manual adjustments, and the fraud review's holds (a signal whose policy holds the
// affiliate's commissions), approvals and rejections (docs/product/review.md#holding). After it, for
// every affiliate: the ledger reconciles to the cent; its totals are today's totals over the rows; each
// commission is today's price; no commission is in the paid account twice; no held commission is in
// a payout.

type Step =
  | { kind: 'purchase'; affiliate: number }
  | { kind: 'wait'; days: number }
  | { kind: 'refund'; pick: number }
  | { kind: 'payday' }
  | { kind: 'mark'; pick: number; status: 'sent' | 'paid' | 'failed' }
  | { kind: 'adjust'; affiliate: number; cents: number }
  | { kind: 'hold'; affiliate: number }
  | { kind: 'decide'; affiliate: number; decision: 'approve' | 'reject' };

const AFFILIATES = 3;
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('purchase' as const), affiliate: fc.nat(AFFILIATES - 1) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('wait' as const), days: fc.integer({ min: 1, max: 45 }) }) },
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
      affiliate: fc.nat(AFFILIATES - 1),
      cents: fc.integer({ min: -900, max: 900 }).filter((cents) => cents !== 0),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('hold' as const), affiliate: fc.nat(AFFILIATES - 1) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('decide' as const),
      affiliate: fc.nat(AFFILIATES - 1),
      decision: fc.constantFrom('approve' as const, 'reject' as const),
    }),
  },
);

const OPERATOR = { userId: 'ledger-operator', email: 'operator@example.com', role: 'admin' as const };
let signalCount = 0;

let era = 0;

describe('the ledger, for any sequence of events', () => {
  it('reconciles to the cent, equals today’s figures and never pays a commission twice', async () => {
    // In this database the default group holds on a click burst: a `hold` step raises one.
    await t.database.sql.query(
      "UPDATE review_policies SET action = 'hold' WHERE group_id = 'default' AND signal = 'click-burst'",
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 30 }), async (steps) => {
        // Each run in its own years: paydays already run stay run.
        t.clock.now = new Date(Date.UTC(2040 + 4 * era++, 0, 3, 12));
        const affiliates = await Promise.all(
          Array.from({ length: AFFILIATES }, () => createPayee(t, 'paypal').then((payee) => payee.affiliateId)),
        );
        // The first affiliate starts just below the premium tier, so sequences cross it.
        await insertConversions(t, affiliates[0]!, PREMIUM_THRESHOLD - 2, {
          status: 'approved',
          occurredAt: t.clock.now,
          approvedAt: t.clock.now,
        });
        const qualified = [PREMIUM_THRESHOLD - 2, 0, 0];
        const conversions: { id: number; affiliate: number }[] = [];
        const reversed = new Set<number>();

        for (const next of steps) {
          if (next.kind === 'purchase') {
            const bought = await purchase(affiliates[next.affiliate]!);
            expect(bought?.commissionCents).toBe(
              qualified[next.affiliate]! >= PREMIUM_THRESHOLD ? PREMIUM_COMMISSION_CENTS : STANDARD_COMMISSION_CENTS,
            );
            qualified[next.affiliate]!++;
            conversions.push({ id: bought!.conversionId, affiliate: next.affiliate });
          } else if (next.kind === 'wait') {
            t.clock.now = new Date(t.clock.now.getTime() + next.days * DAY_MS);
            await approveDueCommissions(t.context);
          } else if (next.kind === 'refund' && conversions.length > 0) {
            const chosen = conversions[next.pick % conversions.length]!;
            const outcome = await reverseConversion(t.context, {
              conversionId: chosen.id,
              reason: 'refund',
              actor: 'revenuecat',
            });
            if (outcome?.outcome === 'reversed') qualified[chosen.affiliate]!--;
            if (outcome?.outcome !== 'already-reversed') reversed.add(chosen.id);
          } else if (next.kind === 'payday') {
            await runPayouts(t.context, latestPayday(t.clock.now));
          } else if (next.kind === 'mark') {
            await markOnePayout(t, affiliates, next.pick, next.status);
          } else if (next.kind === 'adjust') {
            await insertAdjustment(t, affiliates[next.affiliate]!, { cents: next.cents });
          } else if (next.kind === 'hold') {
            await raiseClickBurst(t, affiliates[next.affiliate]!, `ledger-burst:${++signalCount}`);
          } else if (next.kind === 'decide') {
            const { rows } = await t.database.sql.query<{ id: string }>(
              "SELECT id::text AS id FROM review_cases WHERE affiliate_id = $1 AND status = 'open'",
              [affiliates[next.affiliate]!],
            );
            if (rows[0]) {
              const { rows: held } = await t.database.sql.query<{ id: number }>(
                'SELECT id::int AS id FROM conversions WHERE review_case_id = $1 AND review_hold',
                [rows[0].id],
              );
              await decideReviewCase(t.context, OPERATOR, {
                caseId: rows[0].id,
                decision: next.decision,
                reason: 'checked',
              });
              if (next.decision === 'reject') {
                for (const { id } of held) {
                  // A commission not bought in the sequence is one of the first affiliate's starting ones.
                  const owner = conversions.find((c) => c.id === id)?.affiliate ?? 0;
                  if (!reversed.has(id)) qualified[owner]!--;
                  reversed.add(id);
                }
              }
            }
          }
          // No commission a case holds is ever in a payout that holds its amount.
          const { rows: heldInPayout } = await t.database.sql.query(
            `SELECT c.id FROM conversions c JOIN payouts p ON p.id = c.payout_id
             WHERE c.review_hold AND c.status <> 'reversed' AND p.status <> 'failed'`,
          );
          expect(heldInPayout).toEqual([]);
        }

        for (const affiliateId of affiliates) {
          expect(await reconcileLedger(t.database.sql, affiliateId)).toEqual([]);
          const { ledger, rows } = await totalsBoth(affiliateId);
          expect(ledger).toEqual(rows);
        }
        expect(await paidOtherThanOnce(t, affiliates)).toEqual([]);
      }),
      {
        numRuns: 12,
        // Besides the random ones: a held commission approved, then paid on the next payday; one rejected.
        examples: [
          [
            [
              { kind: 'purchase', affiliate: 1 },
              { kind: 'hold', affiliate: 1 },
              { kind: 'purchase', affiliate: 1 },
              { kind: 'wait', days: 40 },
              { kind: 'payday' },
              { kind: 'decide', affiliate: 1, decision: 'approve' },
              { kind: 'wait', days: 30 },
              { kind: 'payday' },
              { kind: 'purchase', affiliate: 2 },
              { kind: 'hold', affiliate: 2 },
              { kind: 'decide', affiliate: 2, decision: 'reject' },
            ],
          ],
        ],
      },
    );
    // The sequences did hold, release and reverse held commissions.
    const { rows: moved } = await t.database.sql.query<{ kind: string }>(
      "SELECT DISTINCT kind FROM ledger_entries WHERE kind IN ('held', 'released-from-review') OR from_account = 'held'",
    );
    expect(moved.map((row) => row.kind).sort()).toEqual(['held', 'released-from-review', 'reversed']);
  }, 600_000);
});
