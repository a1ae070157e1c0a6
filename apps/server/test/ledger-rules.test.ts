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
import { percentOf } from '../src/domain/reward-rules.ts';
import { reverseConversion } from '../src/domain/reverse-conversion.ts';
import { runPayouts } from '../src/features/payouts/payout-run.ts';
import { type TestApp, createTestApp } from './helpers/app.ts';
import { createPayee } from './fixtures/payouts.ts';
import {
  type Purchase,
  markOnePayout,
  paidOtherThanOnce,
  recordInstallRenewal,
  recordPurchase,
  totalsBoth,
} from './fixtures/ledger.ts';

// Reward rules under any sequence of events (docs/product/money.md#partner-groups-and-reward-rules,
// docs/product/money.md#the-ledger): purchases, renewals, refunds, new rule versions, affiliates moved
// between groups, holds ending, paydays and payouts. After each sequence, for every affiliate: the
// ledger reconciles to the cent and equals the row rules' figures; no commission is paid twice; every
// commission is the price of the rule its affiliate's group had in force — today's $2/$4 in the
// default group, whatever happened in the others.

const DAY_MS = 24 * 60 * 60 * 1000;
const AFFILIATES = 3;

type Step =
  | { kind: 'purchase'; affiliate: number; proceedsCents: number }
  | { kind: 'renewal'; pick: number; proceedsCents: number }
  | { kind: 'wait'; days: number }
  | { kind: 'refund'; pick: number }
  | { kind: 'rule'; basisPoints: number; recurringMonths: number | null; holdDays: number }
  | { kind: 'move'; affiliate: number; toDefault: boolean }
  | { kind: 'payday' }
  | { kind: 'mark'; pick: number; status: 'sent' | 'paid' | 'failed' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('purchase' as const),
      affiliate: fc.nat(AFFILIATES - 1),
      proceedsCents: fc.integer({ min: 1, max: 50_000 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('renewal' as const),
      pick: fc.nat(),
      proceedsCents: fc.integer({ min: 1, max: 50_000 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('wait' as const), days: fc.integer({ min: 1, max: 45 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('refund' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('rule' as const),
      basisPoints: fc.integer({ min: 0, max: 10_000 }),
      recurringMonths: fc.option(fc.integer({ min: 1, max: 24 }), { nil: null }),
      holdDays: fc.integer({ min: 0, max: 60 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('move' as const),
      affiliate: fc.nat(AFFILIATES - 1),
      toDefault: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('payday' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('mark' as const),
      pick: fc.nat(),
      status: fc.constantFrom('sent' as const, 'paid' as const, 'failed' as const),
    }),
  },
);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let run = 0;

describe('reward rules, for any sequence of events', () => {
  it('price each commission by the rule in force, and the ledger reconciles to the cent', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 30 }), async (steps) => {
        run += 1;
        t.clock.now = new Date(Date.UTC(2100 + 4 * run, 0, 3, 12));
        const groupId = `creators-${run}`;
        await t.database.sql.query(`INSERT INTO partner_groups (id, name) VALUES ($1, 'Creators')`, [groupId]);
        // The group's rule in force, as the test knows it: 30 % on first purchases and 12 months of renewals.
        let rule = { version: 1, basisPoints: 3000, recurringMonths: 12 as number | null, holdDays: 14 };
        const publish = async () =>
          t.database.sql.query(
            `INSERT INTO reward_rules (group_id, version, effective_from, kind, percent_basis_points, recurring_months,
                                       hold_days, minimum_payout_cents)
             VALUES ($1, $2, $3, 'percentage', $4, $5, $6, 1000)`,
            [groupId, rule.version, t.clock.now.toISOString(), rule.basisPoints, rule.recurringMonths, rule.holdDays],
          );
        await publish();

        const affiliates = await Promise.all(
          Array.from({ length: AFFILIATES }, () => createPayee(t, 'paypal').then((payee) => payee.affiliateId)),
        );
        // The first affiliate starts in the default group, the others in the creators'.
        const inGroup = [false, true, true];
        for (const [index, affiliateId] of affiliates.entries())
          if (inGroup[index])
            await t.database.sql.query(`UPDATE affiliates SET group_id = $2 WHERE id = $1`, [affiliateId, groupId]);
        const qualified = [0, 0, 0];
        const purchases: (Purchase & { affiliate: number; at: Date })[] = [];

        for (const next of steps) {
          if (next.kind === 'purchase') {
            const bought = await recordPurchase(t, affiliates[next.affiliate]!, { proceedsCents: next.proceedsCents });
            const expected = inGroup[next.affiliate]
              ? percentOf(next.proceedsCents, rule.basisPoints)
              : qualified[next.affiliate]! >= PREMIUM_THRESHOLD
                ? PREMIUM_COMMISSION_CENTS
                : STANDARD_COMMISSION_CENTS;
            expect(bought?.commissionCents).toBe(expected);
            qualified[next.affiliate]!++;
            purchases.push({ ...bought!, affiliate: next.affiliate, at: new Date(t.clock.now) });
          } else if (next.kind === 'renewal' && purchases.length > 0) {
            const first = purchases[next.pick % purchases.length]!;
            const renewed = await recordInstallRenewal(t, first.installId, next.proceedsCents);
            if (renewed.outcome === 'renewal') {
              // Paid only in the group, under a recurring rule, within its months.
              expect(inGroup[first.affiliate]).toBe(true);
              expect(renewed.commissionCents).toBe(percentOf(next.proceedsCents, rule.basisPoints));
            } else if (inGroup[first.affiliate] && rule.recurringMonths !== null) {
              expect(renewed).toMatchObject({ outcome: 'renewal-unpaid' });
            }
          } else if (next.kind === 'wait') {
            t.clock.now = new Date(t.clock.now.getTime() + next.days * DAY_MS);
            await approveDueCommissions(t.context);
          } else if (next.kind === 'refund' && purchases.length > 0) {
            const chosen = purchases[next.pick % purchases.length]!;
            const outcome = await reverseConversion(t.context, {
              conversionId: chosen.conversionId,
              reason: 'refund',
              actor: 'revenuecat',
            });
            if (outcome?.outcome === 'reversed') qualified[chosen.affiliate]!--;
          } else if (next.kind === 'rule') {
            t.clock.now = new Date(t.clock.now.getTime() + 1000);
            rule = { version: rule.version + 1, ...next };
            await publish();
          } else if (next.kind === 'move') {
            inGroup[next.affiliate] = !next.toDefault;
            await t.database.sql.query(`UPDATE affiliates SET group_id = $2 WHERE id = $1`, [
              affiliates[next.affiliate],
              next.toDefault ? 'default' : groupId,
            ]);
          } else if (next.kind === 'payday') {
            await runPayouts(t.context, latestPayday(t.clock.now));
          } else if (next.kind === 'mark') {
            await markOnePayout(t, affiliates, next.pick, next.status);
          }
        }

        for (const affiliateId of affiliates) {
          expect(await reconcileLedger(t.database.sql, affiliateId)).toEqual([]);
          const { ledger, rows } = await totalsBoth(t, affiliateId);
          expect(ledger).toEqual(rows);
        }
        expect(await paidOtherThanOnce(t, affiliates)).toEqual([]);
      }),
      { numRuns: 10 },
    );
  }, 600_000);
});
