import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from './helpers/app.ts';
import { callFn, createTestAffiliate, insertPayout } from './helpers/affiliates.ts';

// getAffiliateSettings, updateNotificationPreferences (docs/product/routes-and-screens.md#settings-tab: saved, default on) and
// getAffiliatePayouts (the Payments tab's real history).

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('getAffiliateSettings', () => {
  it('answers the account e-mail, names, language and preferences (all on by default)', async () => {
    const affiliate = await createTestAffiliate(t, { firstName: 'Grace', lastName: 'Hopper', language: 'fr' });
    const response = await callFn(t, 'getAffiliateSettings', null, affiliate.cookie);
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual({
      email: affiliate.email,
      firstName: 'Grace',
      lastName: 'Hopper',
      language: 'fr',
      notifications: { conversions: true, payments: true, news: true },
    });
  });
});

describe('updateNotificationPreferences', () => {
  it('saves the three preferences and answers them', async () => {
    const affiliate = await createTestAffiliate(t);
    const response = await callFn(
      t,
      'updateNotificationPreferences',
      { conversions: false, payments: true, news: false },
      affiliate.cookie,
    );
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual({ notifications: { conversions: false, payments: true, news: false } });
    const settings = await callFn(t, 'getAffiliateSettings', null, affiliate.cookie);
    expect(settings.body.result.notifications).toEqual({ conversions: false, payments: true, news: false });

    const back = await callFn(
      t,
      'updateNotificationPreferences',
      { conversions: true, payments: false, news: true },
      affiliate.cookie,
    );
    expect(back.body.result.notifications).toEqual({ conversions: true, payments: false, news: true });
  });

  it.each([
    ['a string for a boolean', { conversions: 'true', payments: true, news: true }],
    ['a number for a boolean', { conversions: true, payments: 1, news: true }],
    ['null for a boolean', { conversions: true, payments: true, news: null }],
    ['a missing preference', { conversions: false, payments: false }],
    ['no preferences', {}],
    ['no data', null],
    ['an array', [true, true, true]],
    ['a string', 'all'],
  ])('refuses %s with invalid-argument and saves nothing', async (_label, data) => {
    const affiliate = await createTestAffiliate(t);
    const response = await callFn(t, 'updateNotificationPreferences', data, affiliate.cookie);
    expect(response.status).toBe(400);
    expect(response.body.error?.status).toBe('INVALID_ARGUMENT');
    const settings = await callFn(t, 'getAffiliateSettings', null, affiliate.cookie);
    expect(settings.body.result.notifications).toEqual({ conversions: true, payments: true, news: true });
  });
});

describe('getAffiliatePayouts', () => {
  it('answers an empty history for a new affiliate', async () => {
    const affiliate = await createTestAffiliate(t);
    const response = await callFn(t, 'getAffiliatePayouts', null, affiliate.cookie);
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual({ payouts: [] });
  });

  it('answers the affiliate’s own payouts, newest first', async () => {
    const affiliate = await createTestAffiliate(t);
    const other = await createTestAffiliate(t);
    const march = await insertPayout(t, affiliate.affiliateId, {
      amountCents: 2400,
      status: 'paid',
      periodStart: '2025-03-01',
      periodEnd: '2025-03-31',
      scheduledFor: '2025-04-15',
      paidAt: new Date('2025-04-15T09:30:00.000Z'),
    });
    const april = await insertPayout(t, affiliate.affiliateId, {
      amountCents: 3000,
      status: 'scheduled',
      method: 'bank_transfer',
      periodStart: '2025-04-01',
      periodEnd: '2025-04-30',
      scheduledFor: '2025-05-15',
    });
    await insertPayout(t, other.affiliateId, {
      amountCents: 9900,
      status: 'paid',
      periodStart: '2025-04-01',
      scheduledFor: '2025-05-15',
    });

    const response = await callFn(t, 'getAffiliatePayouts', {}, affiliate.cookie);
    expect(response.status).toBe(200);
    expect(response.body.result.payouts).toEqual([
      {
        id: april,
        periodStart: '2025-04-01',
        periodEnd: '2025-04-30',
        amountCents: 3000,
        currency: 'USD',
        method: 'bank_transfer',
        status: 'scheduled',
        scheduledFor: '2025-05-15',
        paidAt: null,
      },
      {
        id: march,
        periodStart: '2025-03-01',
        periodEnd: '2025-03-31',
        amountCents: 2400,
        currency: 'USD',
        method: 'paypal',
        status: 'paid',
        scheduledFor: '2025-04-15',
        paidAt: '2025-04-15T09:30:00.000Z',
      },
    ]);
  });
});
