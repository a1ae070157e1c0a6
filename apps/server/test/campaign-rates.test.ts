import { beforeAll, describe, expect, it } from 'vitest';
import { REWARDS_REFUSALS } from '@skanova/shared/rewards/schemas';
import { useRewardsFixture } from './fixtures/rewards.ts';
import type { TestApp } from './helpers/app.ts';
import { type TestAffiliate, callFn, insertCode } from './helpers/affiliates.ts';
import type { TestOperator } from './helpers/operators.ts';
import { attributedUser, postWebhook, purchaseEvent } from './helpers/revenuecat.ts';

// Campaign rates on referral codes (docs/product/money.md#operators-groups-rules-and-campaigns): an
// operator lists, adds and deletes them; a range overlapping another of the code's, one starting
// before today, a reversed one or a rate out of bounds is refused with its field and writes nothing;
// a rate that priced a commission stays; each change is audited; affiliates are refused.

const NOW = new Date('2026-05-12T10:30:00.000Z');

const rewards = useRewardsFixture({ start: NOW, affiliate: { firstName: 'Cyrus' } });
const { call, snapshot, expectRefused } = rewards;
let t: TestApp;
let operator: TestOperator;
let affiliate: TestAffiliate;
let code: string;

beforeAll(async () => {
  ({ t, operator, affiliate } = rewards);
  code = (await insertCode(t, affiliate.affiliateId)).code;
});

const flat = (from: string, until: string, amountCents = 1000) => ({ code, from, until, kind: 'flat', amountCents });

describe('campaign rates', () => {
  let first: string;

  it('are added for whole UTC days from now on, listed with the code, and audited', async () => {
    const added = await call('adminCreateCampaignRate', flat('2026-05-12', '2026-05-20'));
    expect(added.body.result).toMatchObject({
      code,
      // Today: from the moment it was added, never before.
      startsAt: NOW.toISOString(),
      endsAt: '2026-05-21T00:00:00.000Z',
      kind: 'flat',
      amountCents: 1000,
      percentBasisPoints: null,
      commissions: 0,
    });
    first = added.body.result.id;
    const second = await call('adminCreateCampaignRate', {
      code: code.toLowerCase(),
      from: '2026-05-21',
      until: '2026-05-31',
      kind: 'percentage',
      percentBasisPoints: 5000,
    });
    expect(second.body.result).toMatchObject({
      startsAt: '2026-05-21T00:00:00.000Z',
      endsAt: '2026-06-01T00:00:00.000Z',
      kind: 'percentage',
      percentBasisPoints: 5000,
    });
    const listed = await call('adminListCampaignRates', { affiliateId: affiliate.affiliateId });
    expect(listed.body.result.rates.map((rate: { id: string }) => rate.id)).toEqual([first, second.body.result.id]);
    const { rows } = await t.database.sql.query<{ actor: string; subject: string; details: Record<string, unknown> }>(
      `SELECT actor, subject, details FROM audit_log WHERE action = 'campaign-rate.created' ORDER BY id`,
    );
    expect(rows[0]).toEqual({
      actor: operator.userId,
      subject: code,
      details: {
        campaignRateId: first,
        affiliateId: affiliate.affiliateId,
        startsAt: NOW.toISOString(),
        endsAt: '2026-05-21T00:00:00.000Z',
        kind: 'flat',
        amountCents: 1000,
        percentBasisPoints: null,
      },
    });
  });

  it.each([
    ['a range overlapping another of the code', () => flat('2026-05-20', '2026-05-25'), REWARDS_REFUSALS.overlap],
    ['a range covering another', () => flat('2026-05-15', '2026-06-30'), REWARDS_REFUSALS.overlap],
    ['a range starting yesterday', () => flat('2026-05-11', '2026-05-11'), REWARDS_REFUSALS.startsInPast],
    [
      'an unknown code',
      () => ({ ...flat('2026-07-01', '2026-07-02'), code: 'NOSUCH00' }),
      REWARDS_REFUSALS.codeUnknown,
    ],
    [
      'a last day before the first',
      () => flat('2026-07-10', '2026-07-01'),
      { path: 'until', key: 'admin:campaigns.errors.rangeReversed' },
    ],
    [
      'a day that is no day',
      () => flat('2026-02-30', '2026-07-01'),
      { path: 'from', key: 'admin:campaigns.errors.dayFormat' },
    ],
    [
      'a negative amount',
      () => flat('2026-07-01', '2026-07-02', -500),
      { path: 'amountCents', key: 'admin:rules.errors.amountFormat' },
    ],
    [
      'an amount in fractions of a cent',
      () => flat('2026-07-01', '2026-07-02', 999.9),
      { path: 'amountCents', key: 'admin:rules.errors.amountFormat' },
    ],
    [
      'a percentage over 100',
      () => ({ code, from: '2026-07-01', until: '2026-07-02', kind: 'percentage', percentBasisPoints: 12_000 }),
      { path: 'percentBasisPoints', key: 'admin:rules.errors.percentRange' },
    ],
    [
      'a flat rate without its amount',
      () => ({ code, from: '2026-07-01', until: '2026-07-02', kind: 'flat' }),
      { path: 'amountCents', key: 'admin:rules.errors.amountFormat' },
    ],
    [
      'a percentage with an amount',
      () => ({
        code,
        from: '2026-07-01',
        until: '2026-07-02',
        kind: 'percentage',
        percentBasisPoints: 10,
        amountCents: 5,
      }),
      { path: 'amountCents', key: 'admin:rules.errors.notForPercentage' },
    ],
  ])('refuse %s, writing nothing', async (_label, data, field) => {
    await expectRefused('adminCreateCampaignRate', data(), field);
  });

  it('price the purchases of their days; one that did stays, one that did not is deleted and audited', async () => {
    const purchase = purchaseEvent(await attributedUser(t, code), {}, new Date(NOW.getTime() + 60_000));
    expect((await postWebhook(t, purchase)).body.outcome).toBe('conversion');
    const listed = await call('adminListConversions', { affiliateId: affiliate.affiliateId });
    expect(listed.body.result.items[0]).toMatchObject({
      commissionCents: 1000,
      rateTier: 'campaign',
      why: {
        defaultGroup: true,
        ruleVersion: 1,
        pricing: { kind: 'campaign', campaignRateId: first, amountCents: 1000 },
      },
    });

    await expectRefused('adminDeleteCampaignRate', { campaignRateId: first }, REWARDS_REFUSALS.rateUsed);
    await expectRefused('adminDeleteCampaignRate', { campaignRateId: '999999' }, REWARDS_REFUSALS.rateUnknown);

    const unused = await call('adminCreateCampaignRate', flat('2026-08-01', '2026-08-31', 700));
    const id = unused.body.result.id as string;
    expect((await call('adminDeleteCampaignRate', { campaignRateId: id })).body.result).toEqual({ deleted: id });
    const { rows } = await t.database.sql.query<{ subject: string; details: Record<string, unknown> }>(
      `SELECT subject, details FROM audit_log WHERE action = 'campaign-rate.deleted'`,
    );
    expect(rows).toEqual([
      {
        subject: code,
        details: expect.objectContaining({ campaignRateId: id, kind: 'flat', amountCents: 700 }),
      },
    ]);
    const rates = (await call('adminListCampaignRates', { affiliateId: affiliate.affiliateId })).body.result.rates;
    expect(rates.map((rate: { id: string; commissions: number }) => [rate.id, rate.commissions])).toEqual([
      [first, 1],
      [expect.any(String), 0],
    ]);
  });

  it('are refused to an affiliate (permission-denied), writing nothing', async () => {
    for (const [name, data] of [
      ['adminListCampaignRates', { affiliateId: affiliate.affiliateId }],
      ['adminCreateCampaignRate', flat('2026-09-01', '2026-09-02')],
      ['adminDeleteCampaignRate', { campaignRateId: '1' }],
    ] as const) {
      const before = await snapshot();
      const response = await callFn(t, name, data, affiliate.cookie);
      expect([name, response.status, response.body.error?.status]).toEqual([name, 403, 'PERMISSION_DENIED']);
      expect(await snapshot()).toBe(before);
    }
  });
});
