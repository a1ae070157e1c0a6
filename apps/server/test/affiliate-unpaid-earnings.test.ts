import { MINIMUM_PAYOUT_CENTS } from '@skanova/shared/affiliate/programme';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from './helpers/app.ts';
import {
  callFn,
  createTestAffiliate,
  insertAdjustment,
  insertConversion,
  insertConversions,
  insertPayout,
} from './helpers/affiliates.ts';

// getAffiliateUnpaidEarnings (docs/product/routes-and-screens.md#payments-tab, docs/product/money.md#the-ledger): why the next
// payday pays less than the unpaid earnings — every part from rows written here, adding up to the
// dashboard's own unpaid figure, and the pending commissions by the day their hold ends.

/** The next payday is 15 June, whose cut-off (1 June) is past; the one after is 15 July. */
const NOW = new Date('2025-06-10T12:00:00.000Z');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => {
  t.clock.now = new Date(NOW);
});

describe('getAffiliateUnpaidEarnings', () => {
  it('answers nothing unpaid for a new affiliate, with the paydays and the minimum of their rule', async () => {
    const affiliate = await createTestAffiliate(t);
    const response = await callFn(t, 'getAffiliateUnpaidEarnings', null, affiliate.cookie);
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual({
      unpaidCents: 0,
      nextPayday: '2025-06-15',
      cutoff: '2025-06-01T00:00:00.000Z',
      minimumCents: MINIMUM_PAYOUT_CENTS,
      payableOnNextPaydayCents: 0,
      payableLaterCents: 0,
      followingPayday: '2025-07-15',
      pendingCents: 0,
      pending: [],
      underReviewCents: 0,
      inPayoutCents: 0,
    });
  });

  it('splits the unpaid earnings by where they stand, and they add up to the dashboard’s', async () => {
    const affiliate = await createTestAffiliate(t);
    const id = affiliate.affiliateId;
    const beforeCutoff = new Date('2025-05-20T00:00:00.000Z');
    const afterCutoff = new Date('2025-06-05T00:00:00.000Z');
    // Payable on 15 June: 3 × 200 approved before the cut-off, and a clawback (always deducted at once).
    await insertConversions(t, id, 3, { status: 'approved', occurredAt: beforeCutoff, approvedAt: beforeCutoff });
    await insertAdjustment(t, id, { cents: -150, createdAt: afterCutoff });
    // Approved since the cut-off: paid on 15 July.
    await insertConversion(t, id, { cents: 400, status: 'approved', occurredAt: afterCutoff, approvedAt: afterCutoff });
    // Pending: their 30-day hold ends on 14 June (2 × 200) and on 8 July (400 + 200).
    await insertConversions(t, id, 2, { status: 'pending', occurredAt: new Date('2025-05-15T09:30:00.000Z') });
    await insertConversion(t, id, { cents: 400, status: 'pending', occurredAt: new Date('2025-06-08T08:00:00.000Z') });
    await insertConversion(t, id, { status: 'pending', occurredAt: new Date('2025-06-08T23:00:00.000Z') });
    // Held by the review: neither pending nor payable.
    const held = await insertConversion(t, id, { status: 'pending', occurredAt: new Date('2025-06-01T00:00:00.000Z') });
    const { rows: cases } = await t.database.sql.query<{ id: string }>(
      'INSERT INTO review_cases (affiliate_id, opened_at) VALUES ($1, $2) RETURNING id::text AS id',
      [id, NOW.toISOString()],
    );
    await t.database.sql.query(
      'UPDATE conversions SET review_hold = true, review_case_id = $2, review_changed_at = $3 WHERE id = $1',
      [held, cases[0]!.id, NOW.toISOString()],
    );
    // In a payout scheduled and not sent yet; a sent payout's and a reversed commission count nowhere.
    const scheduled = await insertPayout(t, id, { amountCents: 200, status: 'scheduled', periodStart: '2025-05-01' });
    await insertConversion(t, id, {
      status: 'approved',
      occurredAt: beforeCutoff,
      approvedAt: beforeCutoff,
      payoutId: scheduled,
    });
    const sent = await insertPayout(t, id, { amountCents: 200, status: 'sent', periodStart: '2025-04-01' });
    await insertConversion(t, id, {
      status: 'approved',
      occurredAt: beforeCutoff,
      approvedAt: beforeCutoff,
      payoutId: sent,
    });
    await insertConversion(t, id, { cents: 400, status: 'reversed', occurredAt: afterCutoff });

    const response = await callFn(t, 'getAffiliateUnpaidEarnings', null, affiliate.cookie);
    expect(response.status).toBe(200);
    const unpaid = response.body.result;
    expect(unpaid).toEqual({
      unpaidCents: 2250,
      nextPayday: '2025-06-15',
      cutoff: '2025-06-01T00:00:00.000Z',
      minimumCents: MINIMUM_PAYOUT_CENTS,
      payableOnNextPaydayCents: 450,
      payableLaterCents: 400,
      followingPayday: '2025-07-15',
      pendingCents: 1000,
      pending: [
        // Payable from 14 June: approved after the cut-off of 15 June, so paid on 15 July.
        { payableOn: '2025-06-14', payday: '2025-07-15', cents: 400, commissions: 2 },
        { payableOn: '2025-07-08', payday: '2025-08-15', cents: 600, commissions: 2 },
      ],
      underReviewCents: 200,
      inPayoutCents: 200,
    });
    const parts = [
      'payableOnNextPaydayCents',
      'payableLaterCents',
      'pendingCents',
      'underReviewCents',
      'inPayoutCents',
    ];
    expect(parts.reduce((sum, part) => sum + (unpaid[part] as number), 0)).toBe(unpaid.unpaidCents);

    // The same figures as the dashboard's: the unpaid earnings, and nothing paid on 15 June (450 is
    // under the minimum: it rolls over).
    const stats = (await callFn(t, 'getAffiliateStats', null, affiliate.cookie)).body.result;
    expect(stats.unpaidEarningsCents).toBe(unpaid.unpaidCents);
    expect(stats.underReviewCents).toBe(unpaid.underReviewCents);
    expect(stats.nextPayout).toEqual({ date: '2025-06-15', payableCents: 0, approvedUnpaidCents: 1050 });
  });

  it('reads the caller’s rows only', async () => {
    const other = await createTestAffiliate(t);
    await insertConversions(t, other.affiliateId, 4, { status: 'pending' });
    const affiliate = await createTestAffiliate(t);
    const response = await callFn(t, 'getAffiliateUnpaidEarnings', null, affiliate.cookie);
    expect(response.body.result).toMatchObject({ unpaidCents: 0, pendingCents: 0, pending: [] });
  });
});
