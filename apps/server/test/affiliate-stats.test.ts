import { ACTIVE_VISITORS_WINDOW_MINUTES, STATS_CHART_DAYS } from '@skanova/shared/affiliate/constants';
import { MINIMUM_PAYOUT_CENTS, PREMIUM_THRESHOLD } from '@skanova/shared/affiliate/programme';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { conversionRate } from '../src/features/affiliate/affiliate-stats.ts';
import { type TestApp, TEST_PUBLIC_URL, createTestApp } from './helpers/app.ts';
import {
  type TestAffiliate,
  callFn,
  createTestAffiliate,
  insertAdjustment,
  insertVisits,
  insertCode,
  insertConversion,
  insertConversions,
  insertPayout,
} from './helpers/affiliates.ts';
import { IPHONE_USER_AGENT, createVisit } from './helpers/visits.ts';

// getAffiliateStats, getActiveVisitors and getAffiliateTimeline (docs/product/money.md#statistics,
// docs/product/money.md#premium-tier, docs/product/attribution.md#active-visitors): every figure from rows written here, with exact expectations.

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** A Tuesday in June: the next payday is 15 June, whose cut-off (1 June) is already past. */
const NOW = new Date('2025-06-10T12:00:00.000Z');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => {
  t.clock.now = new Date(NOW);
});

async function stats(affiliate: TestAffiliate) {
  const response = await callFn(t, 'getAffiliateStats', null, affiliate.cookie);
  expect(response.status).toBe(200);
  return response.body.result;
}

describe('getAffiliateStats', () => {
  it('answers zeros and the standard rate for a new affiliate', async () => {
    const affiliate = await createTestAffiliate(t);
    expect(await stats(affiliate)).toEqual({
      totalEarnings: 0,
      totalEarningsCents: 0,
      unpaidEarnings: 0,
      unpaidEarningsCents: 0,
      underReviewCents: 0,
      totalConversions: 0,
      totalClicks: 0,
      conversionRate: 0,
      last30DaysCount: 0,
      hasPremiumRate: false,
      progressToTier: 0,
      currentCommissionRate: 2,
      referralCodes: [],
      activeVisitors: 0,
      nextPayout: { date: '2025-06-15', payableCents: 0, approvedUnpaidCents: 0 },
      status: 'active',
    });
  });

  it('counts counted clicks and qualified conversions per code, in creation order', async () => {
    const affiliate = await createTestAffiliate(t);
    // Inserted out of order: the answer follows creation time.
    const second = await insertCode(t, affiliate.affiliateId, {
      description: 'Instagram bio',
      createdAt: new Date('2025-03-02T08:00:00.000Z'),
    });
    const first = await insertCode(t, affiliate.affiliateId, { createdAt: new Date('2025-03-01T08:00:00.000Z') });
    const idle = await insertCode(t, affiliate.affiliateId, { createdAt: new Date('2025-04-01T08:00:00.000Z') });
    await insertVisits(t, first.id, { counted: 7, uncounted: 4, bots: 2, at: new Date('2025-06-01T10:00:00.000Z') });
    await insertVisits(t, second.id, { counted: 5, at: new Date('2025-06-02T10:00:00.000Z') });
    await insertConversions(t, affiliate.affiliateId, 2, { codeId: first.id });
    await insertConversion(t, affiliate.affiliateId, { codeId: first.id, status: 'reversed' });
    await insertConversion(t, affiliate.affiliateId, {
      codeId: second.id,
      status: 'approved',
      approvedAt: new Date('2025-05-01T00:00:00.000Z'),
    });
    // Attributed without a code (e.g. an IP match): counts for the affiliate, for no code.
    await insertConversion(t, affiliate.affiliateId, { codeId: null });

    const result = await stats(affiliate);
    expect(result.totalClicks).toBe(12);
    expect(result.totalConversions).toBe(4);
    expect(result.conversionRate).toBe(33.3);
    expect(result.referralCodes).toEqual([
      {
        code: first.code,
        description: null,
        clickCount: 7,
        conversionCount: 2,
        link: `${TEST_PUBLIC_URL}/download?ref=${first.code}`,
        createdAt: '2025-03-01T08:00:00.000Z',
      },
      {
        code: second.code,
        description: 'Instagram bio',
        clickCount: 5,
        conversionCount: 1,
        link: `${TEST_PUBLIC_URL}/download?ref=${second.code}`,
        createdAt: '2025-03-02T08:00:00.000Z',
      },
      {
        code: idle.code,
        description: null,
        clickCount: 0,
        conversionCount: 0,
        link: `${TEST_PUBLIC_URL}/download?ref=${idle.code}`,
        createdAt: '2025-04-01T08:00:00.000Z',
      },
    ]);
  });

  it('adds up earnings: reversed left out, adjustments in, sent and paid payouts settled', async () => {
    const affiliate = await createTestAffiliate(t);
    const id = affiliate.affiliateId;
    const paid = await insertPayout(t, id, {
      amountCents: 650,
      status: 'paid',
      periodStart: '2025-03-01',
      scheduledFor: '2025-04-15',
    });
    const sent = await insertPayout(t, id, {
      amountCents: 400,
      status: 'sent',
      periodStart: '2025-04-01',
      scheduledFor: '2025-05-15',
    });
    const failed = await insertPayout(t, id, {
      amountCents: 200,
      status: 'failed',
      periodStart: '2025-02-01',
      scheduledFor: '2025-03-15',
    });
    const beforeCutoff = new Date('2025-05-20T00:00:00.000Z');
    const afterCutoff = new Date('2025-06-05T00:00:00.000Z');
    const old = new Date('2025-03-10T00:00:00.000Z');
    // 3 × 200 paid (in the paid payout), and its +50 adjustment.
    await insertConversions(t, id, 3, { status: 'paid', occurredAt: old, approvedAt: old, payoutId: paid });
    await insertAdjustment(t, id, { cents: 50, payoutId: paid, createdAt: old });
    // 2 × 200 approved, in a payout already sent: settled.
    await insertConversions(t, id, 2, { status: 'approved', occurredAt: old, approvedAt: old, payoutId: sent });
    // 1 × 200 approved in a payout that failed: still owed.
    await insertConversion(t, id, { status: 'approved', occurredAt: old, approvedAt: old, payoutId: failed });
    // 9 × 200 approved before the cut-off of 15 June, 1 × 400 after it.
    await insertConversions(t, id, 9, {
      status: 'approved',
      occurredAt: new Date('2025-04-20T00:00:00.000Z'),
      approvedAt: beforeCutoff,
    });
    await insertConversion(t, id, {
      cents: 400,
      status: 'approved',
      occurredAt: new Date('2025-05-06T00:00:00.000Z'),
      approvedAt: afterCutoff,
    });
    // 2 × 200 pending, 1 × 400 reversed (nowhere).
    await insertConversions(t, id, 2, { status: 'pending', occurredAt: new Date('2025-06-08T00:00:00.000Z') });
    await insertConversion(t, id, { cents: 400, status: 'reversed', occurredAt: new Date('2025-06-01T00:00:00.000Z') });
    // Unpaid adjustments: a clawback after the cut-off (deducted at once) and a bonus after it (next time).
    await insertAdjustment(t, id, { cents: -150, createdAt: afterCutoff });
    await insertAdjustment(t, id, { cents: 300, createdAt: afterCutoff });

    const result = await stats(affiliate);
    // Commissions 17 × 200 + 400 = 3800; adjustments 50 − 150 + 300 = 200.
    expect(result.totalEarningsCents).toBe(4000);
    expect(result.totalEarnings).toBe(40);
    // Unpaid: failed 200 + 9 × 200 + 400 + pending 400 = 2800; adjustments −150 + 300 = 150.
    expect(result.unpaidEarningsCents).toBe(2950);
    expect(result.unpaidEarnings).toBe(29.5);
    expect(result.totalConversions).toBe(18);
    // Approved unpaid: 200 + 1800 + 400 + 150 = 2550. Payable on 15 June: 200 + 1800 − 150 = 1850,
    // under the minimum: nothing is paid, it rolls over.
    expect(result.nextPayout).toEqual({ date: '2025-06-15', payableCents: 0, approvedUnpaidCents: 2550 });

    // One more approved commission before the cut-off reaches the minimum.
    await insertConversion(t, id, {
      cents: 200,
      status: 'approved',
      occurredAt: new Date('2025-04-21T00:00:00.000Z'),
      approvedAt: beforeCutoff,
    });
    const after = await stats(affiliate);
    expect(after.nextPayout).toEqual({
      date: '2025-06-15',
      payableCents: MINIMUM_PAYOUT_CENTS + 50,
      approvedUnpaidCents: 2750,
    });
  });

  it('switches to the premium rate at 100 qualified conversions', async () => {
    const affiliate = await createTestAffiliate(t);
    await insertConversions(t, affiliate.affiliateId, PREMIUM_THRESHOLD - 1, {
      occurredAt: new Date('2025-01-01T00:00:00.000Z'),
    });
    await insertConversions(t, affiliate.affiliateId, 5, { status: 'reversed' });
    const before = await stats(affiliate);
    expect(before).toMatchObject({
      totalConversions: 99,
      hasPremiumRate: false,
      progressToTier: 99,
      currentCommissionRate: 2,
    });

    await insertConversion(t, affiliate.affiliateId, { occurredAt: new Date('2025-01-02T00:00:00.000Z') });
    expect(await stats(affiliate)).toMatchObject({
      totalConversions: 100,
      hasPremiumRate: true,
      progressToTier: 100,
      currentCommissionRate: 4,
    });

    await insertConversions(t, affiliate.affiliateId, 20, { cents: 400 });
    expect(await stats(affiliate)).toMatchObject({
      totalConversions: 120,
      hasPremiumRate: true,
      progressToTier: 100,
      currentCommissionRate: 4,
    });
  });

  it('counts the 30 UTC days of the chart, today included, from the first day at midnight', async () => {
    // NOW is 10 June, 12:00 UTC: the window is 12 May 00:00 – 11 June 00:00.
    const affiliate = await createTestAffiliate(t);
    const firstDay = new Date('2025-05-12T00:00:00.000Z');
    await insertConversion(t, affiliate.affiliateId, { occurredAt: firstDay });
    await insertConversion(t, affiliate.affiliateId, { occurredAt: new Date(firstDay.getTime() - 1000) });
    await insertConversion(t, affiliate.affiliateId, { occurredAt: new Date(NOW.getTime() - 28 * DAY_MS) });
    await insertConversion(t, affiliate.affiliateId, {
      occurredAt: new Date(NOW.getTime() - MINUTE_MS),
      status: 'reversed',
    });
    await insertConversion(t, affiliate.affiliateId, {
      occurredAt: new Date(NOW.getTime() - MINUTE_MS),
      status: 'approved',
    });
    // Dated tomorrow (a clock ahead): outside the window, as it is outside the chart.
    await insertConversion(t, affiliate.affiliateId, { occurredAt: new Date('2025-06-11T00:00:00.000Z') });
    expect((await stats(affiliate)).last30DaysCount).toBe(3);

    // A day later the first day has left the window and tomorrow's conversion is today's.
    t.clock.advance(DAY_MS);
    expect((await stats(affiliate)).last30DaysCount).toBe(3);
    t.clock.now = new Date('2025-06-12T00:00:00.000Z');
    expect((await stats(affiliate)).last30DaysCount).toBe(2);
  });

  it('equals the sum of the chart’s conversions at any time of day', async () => {
    const affiliate = await createTestAffiliate(t);
    // One conversion every 7 hours over 33 days around the window, and a reversed one each day.
    const from = new Date('2025-05-09T01:00:00.000Z').getTime();
    for (let at = from; at < new Date('2025-06-12T00:00:00.000Z').getTime(); at += 7 * 60 * MINUTE_MS) {
      await insertConversion(t, affiliate.affiliateId, { occurredAt: new Date(at) });
      if ((at - from) % DAY_MS === 0)
        await insertConversion(t, affiliate.affiliateId, { occurredAt: new Date(at), status: 'reversed' });
    }
    for (const now of ['2025-06-10T00:00:00.000Z', '2025-06-10T12:00:00.000Z', '2025-06-10T23:59:59.999Z']) {
      t.clock.now = new Date(now);
      const card = (await stats(affiliate)).last30DaysCount;
      const timeline = (await callFn(t, 'getAffiliateTimeline', null, affiliate.cookie)).body.result;
      const chart = (timeline.days as { conversions: number }[]).reduce((sum, day) => sum + day.conversions, 0);
      expect(card, now).toBe(chart);
      expect(card, now).toBeGreaterThan(90);
    }
  });

  it('rounds the conversion rate to one decimal', async () => {
    const affiliate = await createTestAffiliate(t);
    const code = await insertCode(t, affiliate.affiliateId);
    await insertVisits(t, code.id, { counted: 3 });
    await insertConversions(t, affiliate.affiliateId, 2, { codeId: code.id });
    expect((await stats(affiliate)).conversionRate).toBe(66.7);

    expect(conversionRate(1, 8)).toBe(12.5);
    expect(conversionRate(1, 16)).toBe(6.3);
    expect(conversionRate(1, 3)).toBe(33.3);
    expect(conversionRate(5, 0)).toBe(0);
    expect(conversionRate(0, 10)).toBe(0);
  });

  it('reports the profile status', async () => {
    const affiliate = await createTestAffiliate(t);
    await t.database.sql.query("UPDATE affiliates SET status = 'pending' WHERE id = $1", [affiliate.affiliateId]);
    expect((await stats(affiliate)).status).toBe('pending');
  });
});

describe('active visitors', () => {
  let ipCounter = 0;
  async function visit(code: string, sessionId: string, userAgent = IPHONE_USER_AGENT) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/fn/storePreInstallData',
      remoteAddress: `198.51.100.${++ipCounter}`,
      headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL, 'user-agent': userAgent },
      payload: JSON.stringify({
        data: createVisit({ code, sessionId, userAgent, timestamp: t.clock.now.toISOString() }),
      }),
    });
    expect(response.statusCode).toBe(200);
  }

  it(`counts distinct human visitors of the last ${ACTIVE_VISITORS_WINDOW_MINUTES} minutes`, async () => {
    const affiliate = await createTestAffiliate(t);
    const other = await createTestAffiliate(t);
    const code = (await callFn(t, 'generateReferralCode', {}, affiliate.cookie)).body.result.code as string;
    const second = (await callFn(t, 'generateReferralCode', {}, affiliate.cookie)).body.result.code as string;
    const othersCode = (await callFn(t, 'generateReferralCode', {}, other.cookie)).body.result.code as string;

    await visit(code, 'visitor-one-abcdefgh');
    await visit(code, 'visitor-one-abcdefgh'); // the same visitor again
    await visit(second, 'visitor-one-abcdefgh'); // …on another of the affiliate's codes
    await visit(second, 'visitor-two-abcdefgh');
    await visit(
      code,
      'visitor-bot-abcdefgh',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    );
    await visit(othersCode, 'visitor-three-abcdefgh');

    const refresh = async () => {
      const response = await callFn(t, 'getActiveVisitors', null, affiliate.cookie);
      expect(response.status).toBe(200);
      return response.body.result;
    };
    expect(await refresh()).toEqual({
      activeVisitors: 2,
      windowMinutes: ACTIVE_VISITORS_WINDOW_MINUTES,
      at: t.clock.now.toISOString(),
    });
    expect((await stats(affiliate)).activeVisitors).toBe(2);
    expect((await stats(other)).activeVisitors).toBe(1);

    t.clock.advance((ACTIVE_VISITORS_WINDOW_MINUTES - 1) * MINUTE_MS);
    await visit(code, 'visitor-four-abcdefgh');
    expect((await refresh()).activeVisitors).toBe(3);

    t.clock.advance(2 * MINUTE_MS);
    expect((await refresh()).activeVisitors).toBe(1);
    expect((await stats(affiliate)).activeVisitors).toBe(1);

    t.clock.advance(ACTIVE_VISITORS_WINDOW_MINUTES * MINUTE_MS);
    expect((await refresh()).activeVisitors).toBe(0);
  });
});

describe('getAffiliateTimeline', () => {
  it(`answers ${STATS_CHART_DAYS} UTC days up to today, zero-filled`, async () => {
    const affiliate = await createTestAffiliate(t);
    const code = await insertCode(t, affiliate.affiliateId);
    const at = (iso: string) => new Date(iso);
    // Today (10 June): 3 counted clicks, a repeat and a bot (not counted), 1 conversion and a reversed one.
    await insertVisits(t, code.id, { counted: 3, uncounted: 1, bots: 1, at: at('2025-06-10T09:15:00.000Z') });
    await insertConversion(t, affiliate.affiliateId, { codeId: code.id, occurredAt: at('2025-06-10T11:00:00.000Z') });
    await insertConversion(t, affiliate.affiliateId, {
      codeId: code.id,
      occurredAt: at('2025-06-10T11:30:00.000Z'),
      status: 'reversed',
    });
    // Late on 1 June: the hour bucket (23:00) stays on that day.
    await insertVisits(t, code.id, { counted: 2, at: at('2025-06-01T23:45:00.000Z') });
    // The first day shown is 12 May; 11 May is outside.
    await insertVisits(t, code.id, { counted: 1, at: at('2025-05-12T00:10:00.000Z') });
    await insertConversion(t, affiliate.affiliateId, { occurredAt: at('2025-05-12T00:00:00.000Z') });
    await insertVisits(t, code.id, { counted: 4, at: at('2025-05-11T23:59:00.000Z') });
    await insertConversion(t, affiliate.affiliateId, { occurredAt: at('2025-05-11T23:59:59.000Z') });

    const response = await callFn(t, 'getAffiliateTimeline', null, affiliate.cookie);
    expect(response.status).toBe(200);
    const days = response.body.result.days as { date: string; clicks: number; conversions: number }[];
    expect(days).toHaveLength(STATS_CHART_DAYS);
    expect(days[0]?.date).toBe('2025-05-12');
    expect(days.at(-1)?.date).toBe('2025-06-10');
    expect(new Set(days.map((day) => day.date)).size).toBe(STATS_CHART_DAYS);
    const active = days.filter((day) => day.clicks > 0 || day.conversions > 0);
    expect(active).toEqual([
      { date: '2025-05-12', clicks: 1, conversions: 1 },
      { date: '2025-06-01', clicks: 2, conversions: 0 },
      { date: '2025-06-10', clicks: 3, conversions: 1 },
    ]);
  });

  it('follows the clock into a new day', async () => {
    const affiliate = await createTestAffiliate(t);
    t.clock.now = new Date('2025-06-10T23:59:59.000Z');
    expect((await callFn(t, 'getAffiliateTimeline', null, affiliate.cookie)).body.result.days.at(-1).date).toBe(
      '2025-06-10',
    );
    t.clock.advance(1000);
    const days = (await callFn(t, 'getAffiliateTimeline', null, affiliate.cookie)).body.result.days;
    expect(days[0].date).toBe('2025-05-13');
    expect(days.at(-1).date).toBe('2025-06-11');
  });
});
