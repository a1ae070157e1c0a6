import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { approveDueCommissions } from '../src/domain/commission-approval.ts';
import { reconcileLedger } from '../src/domain/ledger.ts';
import { percentOf, priceFirstPurchase } from '../src/domain/reward-rules.ts';
import { addMonths } from '../src/domain/record-renewal.ts';
import { runPayouts } from '../src/features/payouts/payout-run.ts';
import { type TestApp, createTestApp } from './helpers/app.ts';
import { insertCode } from './helpers/affiliates.ts';
import { createPayee } from './fixtures/payouts.ts';
import { WEBHOOK_AUTH, attributedUser, postWebhook, purchaseEvent, refundEvent } from './helpers/revenuecat.ts';

// Partner groups and their reward rules (docs/product/money.md#partner-groups-and-reward-rules): a
// percentage of the proceeds, on renewals for a number of months; versions that apply from their
// effective time on; each group's hold and minimum payout. The default group's rule is the
// programme's (commissions.test.ts holds it).

const DAY_MS = 24 * 60 * 60 * 1000;
const START = new Date('2026-01-10T12:00:00.000Z');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { REVENUECAT_WEBHOOK_AUTH: WEBHOOK_AUTH } });
});
afterAll(() => t.close());
beforeEach(() => {
  t.clock.now = new Date(START);
});

let groupCount = 0;

/** A group with a first rule version in force since 2020, and an affiliate with a code in it. */
async function groupWith(rule: {
  kind: 'flat' | 'percentage';
  tiers?: { from: number; cents: number }[];
  percentBasisPoints?: number;
  recurringMonths?: number | null;
  holdDays?: number;
  minimumPayoutCents?: number;
}) {
  const groupId = `group-${++groupCount}`;
  await t.database.sql.query(`INSERT INTO partner_groups (id, name) VALUES ($1, $2)`, [groupId, `Group ${groupCount}`]);
  await addVersion(groupId, 1, new Date('2020-01-01T00:00:00.000Z'), rule);
  const payee = await createPayee(t, 'paypal');
  await t.database.sql.query(`UPDATE affiliates SET group_id = $2 WHERE id = $1`, [payee.affiliateId, groupId]);
  const { code } = await insertCode(t, payee.affiliateId);
  return { groupId, payee, code };
}

async function addVersion(
  groupId: string,
  version: number,
  effectiveFrom: Date,
  rule: Parameters<typeof groupWith>[0],
): Promise<void> {
  await t.database.sql.query(
    `INSERT INTO reward_rules (group_id, version, effective_from, kind, tiers, percent_basis_points, recurring_months,
                               hold_days, minimum_payout_cents)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      groupId,
      version,
      effectiveFrom.toISOString(),
      rule.kind,
      rule.kind === 'flat' ? JSON.stringify(rule.tiers) : null,
      rule.kind === 'percentage' ? rule.percentBasisPoints : null,
      rule.recurringMonths ?? null,
      rule.holdDays ?? 30,
      rule.minimumPayoutCents ?? 2000,
    ],
  );
}

async function commissionsOf(affiliateId: string) {
  const { rows } = await t.database.sql.query<{
    kind: string;
    commission_cents: number;
    status: string;
    version: number;
    pricing: Record<string, unknown>;
    proceeds_cents: number | null;
  }>(
    `SELECT c.kind, c.commission_cents::int AS commission_cents, c.status, r.version, c.pricing,
            c.proceeds_cents::int AS proceeds_cents
     FROM conversions c JOIN reward_rules r ON r.id = c.rule_id WHERE c.affiliate_id = $1 ORDER BY c.id`,
    [affiliateId],
  );
  return rows;
}

function renewalOf(purchase: Record<string, unknown>, at: Date, overrides: Record<string, unknown> = {}) {
  return purchaseEvent(
    purchase.app_user_id as string,
    {
      type: 'RENEWAL',
      original_transaction_id: purchase.original_transaction_id as string,
      ...overrides,
    },
    at,
  );
}

describe('pricing', () => {
  it('takes a share of the proceeds in integer cents, rounded half up', () => {
    expect(percentOf(699, 3000)).toBe(210);
    expect(percentOf(1, 5000)).toBe(1);
    expect(percentOf(3, 5000)).toBe(2);
    expect(percentOf(0, 10_000)).toBe(0);
    expect(percentOf(123_456_789, 10_000)).toBe(123_456_789);
  });

  it('reads a flat rule’s steps by the qualified conversions before the purchase', () => {
    const rule = {
      id: 1,
      groupId: 'g',
      version: 3,
      effectiveFrom: new Date(0),
      kind: 'flat' as const,
      tiers: [
        { from: 0, cents: 150 },
        { from: 10, cents: 300 },
        { from: 50, cents: 500 },
      ],
      percentBasisPoints: null,
      recurringMonths: null,
      holdDays: 14,
      minimumPayoutCents: 1000,
    };
    expect(priceFirstPurchase(rule, { qualifiedBefore: 9, proceedsCents: null }).commissionCents).toBe(150);
    expect(priceFirstPurchase(rule, { qualifiedBefore: 10, proceedsCents: null })).toEqual({
      commissionCents: 300,
      rateTier: 'premium',
      inputs: { kind: 'flat', ruleVersion: 3, qualifiedBefore: 10, tier: 1 },
    });
    expect(priceFirstPurchase(rule, { qualifiedBefore: 999, proceedsCents: null }).commissionCents).toBe(500);
  });

  it('counts months by the calendar, the day kept within the month', () => {
    expect(addMonths(new Date('2026-01-31T10:00:00.000Z'), 1)).toEqual(new Date('2026-02-28T10:00:00.000Z'));
    expect(addMonths(new Date('2026-01-10T10:00:00.000Z'), 12)).toEqual(new Date('2027-01-10T10:00:00.000Z'));
  });
});

describe('a percentage group', () => {
  it('pays 30 % of the proceeds on the first purchase and on renewals for 12 months, no longer', async () => {
    const { payee, code } = await groupWith({ kind: 'percentage', percentBasisPoints: 3000, recurringMonths: 12 });
    const user = await attributedUser(t, code);
    // $9.99, of which the store keeps 15 %: $8.49 of proceeds (8.4915 rounded), 30 % of it is $2.55.
    const purchase = purchaseEvent(user, {}, START);
    expect((await postWebhook(t, purchase)).body.outcome).toBe('conversion');
    const firstRenewal = renewalOf(purchase, new Date(START.getTime() + 31 * DAY_MS));
    expect((await postWebhook(t, firstRenewal)).body.outcome).toBe('renewal');
    // Thirteen months after the first purchase: the recurring months are over.
    const late = renewalOf(purchase, addMonths(START, 13));
    expect((await postWebhook(t, late)).body.outcome).toBe('renewal-unpaid');

    const commissions = await commissionsOf(payee.affiliateId);
    expect(commissions).toEqual([
      {
        kind: 'first-purchase',
        commission_cents: 255,
        status: 'pending',
        version: 1,
        proceeds_cents: 849,
        pricing: { kind: 'percentage', ruleVersion: 1, proceedsCents: 849, percentBasisPoints: 3000 },
      },
      expect.objectContaining({ kind: 'renewal', commission_cents: 255, proceeds_cents: 849, version: 1 }),
    ]);

    // A renewal's commission is money, not a conversion.
    const stats = (await postStats(payee.cookie)) as { totalConversions: number; totalEarningsCents: number };
    expect(stats).toMatchObject({ totalConversions: 1, totalEarningsCents: 510 });

    // A refund of the renewal takes back that renewal's commission only.
    expect((await postWebhook(t, refundEvent(firstRenewal))).body.outcome).toBe('reversed');
    expect((await commissionsOf(payee.affiliateId)).map((row) => row.status)).toEqual(['pending', 'reversed']);
    expect(await reconcileLedger(t.database.sql, payee.affiliateId)).toEqual([]);
  });

  it('pays nothing on renewals in the default group', async () => {
    const payee = await createPayee(t, 'paypal');
    const { code } = await insertCode(t, payee.affiliateId);
    const purchase = purchaseEvent(await attributedUser(t, code), {}, START);
    await postWebhook(t, purchase);
    const renewal = renewalOf(purchase, new Date(START.getTime() + 31 * DAY_MS));
    expect((await postWebhook(t, renewal)).body.outcome).toBe('ignored');
    expect((await commissionsOf(payee.affiliateId)).map((row) => row.commission_cents)).toEqual([200]);
  });
});

describe('rule versions', () => {
  it('price the events from their effective time on, and never re-price what was earned', async () => {
    const { groupId, payee, code } = await groupWith({
      kind: 'flat',
      tiers: [{ from: 0, cents: 300 }],
      holdDays: 7,
    });
    const before = purchaseEvent(await attributedUser(t, code), {}, START);
    await postWebhook(t, before);
    const change = new Date(START.getTime() + 2 * DAY_MS);
    await addVersion(groupId, 2, change, { kind: 'flat', tiers: [{ from: 0, cents: 500 }], holdDays: 14 });
    // Received after the change, but it occurred before it: the first version prices it.
    const late = purchaseEvent(await attributedUser(t, code), {}, new Date(change.getTime() - 60_000));
    const after = purchaseEvent(await attributedUser(t, code), {}, new Date(change.getTime() + 60_000));
    t.clock.now = new Date(change.getTime() + DAY_MS);
    await postWebhook(t, late);
    await postWebhook(t, after);

    const commissions = await commissionsOf(payee.affiliateId);
    expect(commissions.map((row) => [row.commission_cents, row.version])).toEqual([
      [300, 1],
      [300, 1],
      [500, 2],
    ]);

    // Each keeps the hold of the version that priced it: 7 days, then 14.
    t.clock.now = new Date(change.getTime() + 8 * DAY_MS);
    await approveDueCommissions(t.context);
    expect((await commissionsOf(payee.affiliateId)).map((row) => row.status)).toEqual([
      'approved',
      'approved',
      'pending',
    ]);
  });
});

describe('a campaign rate', () => {
  it('prices first purchases through its code within its dates, and no others', async () => {
    const { payee, code } = await groupWith({ kind: 'flat', tiers: [{ from: 0, cents: 300 }] });
    const { rows } = await t.database.sql.query<{ id: string }>(
      `INSERT INTO campaign_rates (referral_code_id, starts_at, ends_at, kind, percent_basis_points)
       SELECT id, $2, $3, 'percentage', 5000 FROM referral_codes WHERE code = $1 RETURNING id::text AS id`,
      [code, '2026-01-11T00:00:00.000Z', '2026-01-13T00:00:00.000Z'],
    );
    const campaignRateId = Number(rows[0]!.id);
    for (const at of ['2026-01-10T23:59:59.000Z', '2026-01-11T00:00:00.000Z', '2026-01-13T00:00:00.000Z'])
      await postWebhook(t, purchaseEvent(await attributedUser(t, code), {}, new Date(at)));
    const commissions = await commissionsOf(payee.affiliateId);
    expect(commissions.map((row) => row.commission_cents)).toEqual([300, 425, 300]);
    expect(commissions[1]!.pricing).toEqual({
      kind: 'campaign',
      ruleVersion: 1,
      campaignRateId,
      proceedsCents: 849,
      percentBasisPoints: 5000,
    });
  });
});

describe('a group’s minimum payout', () => {
  it('decides whether a payday pays', async () => {
    const low = await groupWith({
      kind: 'flat',
      tiers: [{ from: 0, cents: 500 }],
      holdDays: 0,
      minimumPayoutCents: 500,
    });
    const high = await groupWith({
      kind: 'flat',
      tiers: [{ from: 0, cents: 500 }],
      holdDays: 0,
      minimumPayoutCents: 5000,
    });
    for (const group of [low, high])
      await postWebhook(
        t,
        purchaseEvent(await attributedUser(t, group.code), {}, new Date('2026-01-05T00:00:00.000Z')),
      );
    t.clock.now = new Date('2026-02-15T06:00:00.000Z');
    await runPayouts(t.context, '2026-02-15');
    const { rows } = await t.database.sql.query<{ affiliate_id: string; amount_cents: number }>(
      `SELECT affiliate_id, amount_cents::int AS amount_cents FROM payouts WHERE affiliate_id = ANY($1::text[])`,
      [[low.payee.affiliateId, high.payee.affiliateId]],
    );
    expect(rows).toEqual([{ affiliate_id: low.payee.affiliateId, amount_cents: 500 }]);
  });
});

async function postStats(cookie: string): Promise<unknown> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/fn/getAffiliateStats',
    headers: { 'content-type': 'application/json', origin: t.config.publicUrl, cookie },
    payload: JSON.stringify({ data: null }),
  });
  return (response.json() as { result: unknown }).result;
}
