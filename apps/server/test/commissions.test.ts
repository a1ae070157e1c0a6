import {
  COMMISSION_HOLD_DAYS,
  PREMIUM_COMMISSION_CENTS,
  PREMIUM_THRESHOLD,
  STANDARD_COMMISSION_CENTS,
} from '@skanova/shared/affiliate/programme';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { approveDueCommissions } from '../src/domain/commission-approval.ts';
import { reverseConversion } from '../src/domain/reverse-conversion.ts';
import { type TestApp, createTestApp } from './helpers/app.ts';
import {
  type TestAffiliate,
  callFn,
  createTestAffiliate,
  insertCode,
  insertConversion,
  insertConversions,
  insertPayout,
} from './helpers/affiliates.ts';
import {
  WEBHOOK_AUTH,
  attributedUser,
  conversionsOf,
  postWebhook,
  purchaseEvent,
  refundEvent,
} from './helpers/revenuecat.ts';

// Commissions (docs/product/money.md#premium-tier): $2, or $4 once the affiliate already has 100 qualified conversions;
// pending for the 30-day hold, then approved; a refund reverses a commission not yet paid out and
// claws back one already in a payout — never both, never twice.

const NOW = new Date('2025-06-10T12:00:00.000Z');
const DAY_MS = 24 * 60 * 60 * 1000;
const CONVERSIONS = 120;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { REVENUECAT_WEBHOOK_AUTH: WEBHOOK_AUTH } });
});
afterAll(() => t.close());
beforeEach(() => {
  t.clock.now = new Date(NOW);
});

async function affiliateWithCode(): Promise<{ affiliate: TestAffiliate; code: string; codeId: number }> {
  const affiliate = await createTestAffiliate(t);
  const { code, id } = await insertCode(t, affiliate.affiliateId);
  return { affiliate, code, codeId: id };
}

async function stats(affiliate: TestAffiliate) {
  const response = await callFn(t, 'getAffiliateStats', null, affiliate.cookie);
  expect(response.status).toBe(200);
  return response.body.result;
}

/** A converted user of the affiliate's code: answers the purchase event and its conversion id. */
async function convertedUser(code: string, overrides: Record<string, unknown> = {}) {
  const purchase = purchaseEvent(await attributedUser(t, code), overrides, t.clock.now);
  const response = await postWebhook(t, purchase);
  expect(response.body.outcome).toBe('conversion');
  const { rows } = await t.database.sql.query<{ id: number }>(
    'SELECT id::int AS id FROM conversions WHERE source_event_id = $1',
    [purchase.id],
  );
  return { purchase, conversionId: rows[0]!.id };
}

async function conversion(id: number) {
  const { rows } = await t.database.sql.query<{
    status: string;
    reversed_at: string | null;
    refunded_at: string | null;
    reversal_reason: string | null;
  }>('SELECT status, reversed_at::text, refunded_at::text, reversal_reason FROM conversions WHERE id = $1', [id]);
  return rows[0]!;
}

async function adjustments(affiliateId: string) {
  const { rows } = await t.database.sql.query<{
    amount_cents: number;
    conversion_id: number;
    payout_id: string | null;
  }>(
    'SELECT amount_cents, conversion_id::int AS conversion_id, payout_id FROM commission_adjustments WHERE affiliate_id = $1 ORDER BY id',
    [affiliateId],
  );
  return rows;
}

async function auditActions(conversionId: number) {
  const { rows } = await t.database.sql.query<{ actor: string; action: string }>(
    'SELECT actor, action FROM audit_log WHERE subject = $1 ORDER BY id',
    [String(conversionId)],
  );
  return rows;
}

describe('commission rate', () => {
  const expectedCents =
    PREMIUM_THRESHOLD * STANDARD_COMMISSION_CENTS + (CONVERSIONS - PREMIUM_THRESHOLD) * PREMIUM_COMMISSION_CENTS;

  async function expectPremiumFromThe101st(affiliate: TestAffiliate) {
    const conversions = await conversionsOf(t, affiliate.affiliateId);
    expect(conversions).toHaveLength(CONVERSIONS);
    // In the order they were recorded: 100 at $2, then every one at $4.
    expect(conversions.map((row) => row.commission_cents)).toEqual([
      ...Array(PREMIUM_THRESHOLD).fill(STANDARD_COMMISSION_CENTS),
      ...Array(CONVERSIONS - PREMIUM_THRESHOLD).fill(PREMIUM_COMMISSION_CENTS),
    ]);
    expect(conversions.filter((row) => row.rate_tier === 'premium')).toHaveLength(CONVERSIONS - PREMIUM_THRESHOLD);
    expect(await stats(affiliate)).toMatchObject({
      totalConversions: CONVERSIONS,
      totalEarningsCents: expectedCents,
      unpaidEarningsCents: expectedCents,
      hasPremiumRate: true,
      progressToTier: PREMIUM_THRESHOLD,
      currentCommissionRate: PREMIUM_COMMISSION_CENTS / 100,
    });
  }

  it(`${CONVERSIONS} conversions cross to the premium rate at exactly the 101st ($${expectedCents / 100})`, async () => {
    const { affiliate, code } = await affiliateWithCode();
    for (let i = 0; i < CONVERSIONS; i++) {
      expect((await postWebhook(t, purchaseEvent(await attributedUser(t, code), {}, t.clock.now))).body.outcome).toBe(
        'conversion',
      );
    }
    await expectPremiumFromThe101st(affiliate);
  });

  it('also when the webhooks arrive at once, in parallel batches', async () => {
    const { affiliate, code } = await affiliateWithCode();
    const events = [];
    for (let i = 0; i < CONVERSIONS; i++)
      events.push(purchaseEvent(await attributedUser(t, code, i % 2 === 0 ? 'ios' : 'android'), {}, t.clock.now));
    const batch = 30;
    for (let start = 0; start < events.length; start += batch) {
      const answers = await Promise.all(events.slice(start, start + batch).map((event) => postWebhook(t, event)));
      expect(answers.map((answer) => answer.body.outcome)).toEqual(Array(answers.length).fill('conversion'));
    }
    await expectPremiumFromThe101st(affiliate);
  });

  it('counts qualified conversions only: reversed ones do not bring the premium rate', async () => {
    const { affiliate, code, codeId } = await affiliateWithCode();
    await insertConversions(t, affiliate.affiliateId, PREMIUM_THRESHOLD - 1, { codeId });
    await insertConversion(t, affiliate.affiliateId, { codeId, status: 'reversed' });
    await convertedUser(code);
    await convertedUser(code);
    const recent = (await conversionsOf(t, affiliate.affiliateId)).slice(-2);
    expect(recent.map((row) => [row.commission_cents, row.rate_tier])).toEqual([
      [STANDARD_COMMISSION_CENTS, 'standard'],
      [PREMIUM_COMMISSION_CENTS, 'premium'],
    ]);
  });
});

describe('approval after the hold', () => {
  it('approves pending conversions whose hold is over, as of the end of the hold', async () => {
    const { affiliate, codeId } = await affiliateWithCode();
    const due = new Date(NOW.getTime() - COMMISSION_HOLD_DAYS * DAY_MS - 1000);
    const justDue = new Date(NOW.getTime() - COMMISSION_HOLD_DAYS * DAY_MS);
    const held = new Date(NOW.getTime() - (COMMISSION_HOLD_DAYS - 1) * DAY_MS);
    const dueId = await insertConversion(t, affiliate.affiliateId, { codeId, occurredAt: due });
    const justDueId = await insertConversion(t, affiliate.affiliateId, { codeId, occurredAt: justDue });
    const heldId = await insertConversion(t, affiliate.affiliateId, { codeId, occurredAt: held });
    const reversedId = await insertConversion(t, affiliate.affiliateId, {
      codeId,
      occurredAt: due,
      status: 'reversed',
    });

    expect(await approveDueCommissions(t.context)).toEqual({ approved: 2 });
    const rows = await conversionsOf(t, affiliate.affiliateId);
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(dueId)).toMatchObject({ status: 'approved' });
    expect(new Date(byId.get(dueId)!.approved_at!).toISOString()).toBe(
      new Date(due.getTime() + COMMISSION_HOLD_DAYS * DAY_MS).toISOString(),
    );
    expect(byId.get(justDueId)).toMatchObject({ status: 'approved' });
    expect(new Date(byId.get(justDueId)!.approved_at!).toISOString()).toBe(NOW.toISOString());
    expect(byId.get(heldId)).toMatchObject({ status: 'pending', approved_at: null });
    expect(byId.get(reversedId)).toMatchObject({ status: 'reversed', approved_at: null });

    // A second run changes nothing; a day later the held one is due.
    expect(await approveDueCommissions(t.context)).toEqual({ approved: 0 });
    t.clock.advance(DAY_MS);
    expect(await approveDueCommissions(t.context)).toEqual({ approved: 1 });
    expect(await stats(affiliate)).toMatchObject({
      nextPayout: { approvedUnpaidCents: 3 * STANDARD_COMMISSION_CENTS },
    });
  });

  it('works through thousands of conversions in batches', async () => {
    const { affiliate } = await affiliateWithCode();
    const total = 4_500;
    await t.database.sql.query(
      `INSERT INTO conversions (source_event_id, app_user_id, affiliate_id, occurred_at, commission_cents, rate_tier, status)
       SELECT 'bulk-' || g, 'bulk-user-' || g, $1, $2::timestamptz - make_interval(secs => g), 200, 'standard', 'pending'
       FROM generate_series(1, $3::int) AS g`,
      [affiliate.affiliateId, new Date(NOW.getTime() - (COMMISSION_HOLD_DAYS + 1) * DAY_MS).toISOString(), total],
    );
    expect(await approveDueCommissions(t.context)).toEqual({ approved: total });
    const { rows } = await t.database.sql.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM conversions WHERE affiliate_id = $1 GROUP BY status',
      [affiliate.affiliateId],
    );
    expect(rows).toEqual([{ status: 'approved', n: total }]);
    // Each of the 9,000 movements is a ledger entry and each approval a webhook event: on a busy
    // machine the embedded database takes longer than the default 30 s.
  }, 120_000);
});

describe('refunds', () => {
  it('a refund before approval reverses the conversion', async () => {
    const { affiliate, code } = await affiliateWithCode();
    const { purchase, conversionId } = await convertedUser(code);
    await convertedUser(code);
    t.clock.advance(10 * DAY_MS);
    expect(await postWebhook(t, refundEvent(purchase))).toEqual({ status: 200, body: { outcome: 'reversed' } });
    expect(await conversion(conversionId)).toMatchObject({ status: 'reversed', refunded_at: null });
    expect((await conversion(conversionId)).reversal_reason).toContain('refund');
    expect(await adjustments(affiliate.affiliateId)).toEqual([]);
    expect(await auditActions(conversionId)).toEqual([{ actor: 'revenuecat', action: 'conversion.reversed' }]);
    expect(await stats(affiliate)).toMatchObject({
      totalConversions: 1,
      totalEarningsCents: STANDARD_COMMISSION_CENTS,
    });
    // The hold ends: the reversed commission is never approved.
    t.clock.advance(COMMISSION_HOLD_DAYS * DAY_MS);
    await approveDueCommissions(t.context);
    expect((await conversion(conversionId)).status).toBe('reversed');
  });

  it('a refund after approval, before any payout, reverses it too (as does one in a failed payout)', async () => {
    const { affiliate, code } = await affiliateWithCode();
    const approved = await convertedUser(code);
    const inFailedPayout = await convertedUser(code);
    t.clock.advance((COMMISSION_HOLD_DAYS + 1) * DAY_MS);
    await approveDueCommissions(t.context);
    const failed = await insertPayout(t, affiliate.affiliateId, {
      amountCents: 2000,
      status: 'failed',
      periodStart: '2025-07-01',
    });
    await t.database.sql.query('UPDATE conversions SET payout_id = $2 WHERE id = $1', [
      inFailedPayout.conversionId,
      failed,
    ]);

    expect((await postWebhook(t, refundEvent(approved.purchase))).body.outcome).toBe('reversed');
    expect((await postWebhook(t, refundEvent(inFailedPayout.purchase))).body.outcome).toBe('reversed');
    expect((await conversion(approved.conversionId)).status).toBe('reversed');
    expect((await conversion(inFailedPayout.conversionId)).status).toBe('reversed');
    expect(await adjustments(affiliate.affiliateId)).toEqual([]);
  });

  it('a refund after payment takes $2 from the next payout, once', async () => {
    const { affiliate, code } = await affiliateWithCode();
    const { purchase, conversionId } = await convertedUser(code);
    await convertedUser(code);
    const payout = await insertPayout(t, affiliate.affiliateId, {
      amountCents: 2000,
      status: 'paid',
      periodStart: '2025-07-01',
      paidAt: NOW,
    });
    await t.database.sql.query("UPDATE conversions SET status = 'paid', payout_id = $2 WHERE id = $1", [
      conversionId,
      payout,
    ]);
    const before = await stats(affiliate);

    // Months later (Apple refunds arrive late): the clawback path is a normal one.
    t.clock.advance(120 * DAY_MS);
    const refund = refundEvent(purchase);
    expect((await postWebhook(t, refund)).body.outcome).toBe('clawed-back');
    expect(await conversion(conversionId)).toMatchObject({ status: 'paid', reversed_at: null });
    expect(new Date((await conversion(conversionId)).refunded_at!).toISOString()).toBe(t.clock.now.toISOString());
    expect(await adjustments(affiliate.affiliateId)).toEqual([
      { amount_cents: -STANDARD_COMMISSION_CENTS, conversion_id: conversionId, payout_id: null },
    ]);
    expect(await auditActions(conversionId)).toEqual([{ actor: 'revenuecat', action: 'conversion.clawed-back' }]);
    expect((await stats(affiliate)).totalEarningsCents).toBe(before.totalEarningsCents - STANDARD_COMMISSION_CENTS);

    // Again (redelivered under a new id, or refunded twice): nothing more.
    expect((await postWebhook(t, refund)).body.outcome).toBe('duplicate');
    expect((await postWebhook(t, refundEvent(purchase))).body.outcome).toBe('already-reversed');
    expect(await reverseConversion(t.context, { conversionId, reason: 'operator', actor: 'admin-1' })).toEqual({
      outcome: 'already-reversed',
    });
    expect(await adjustments(affiliate.affiliateId)).toHaveLength(1);
  });

  it('a conversion in a scheduled or sent payout is clawed back, not reversed', async () => {
    for (const status of ['scheduled', 'sent'] as const) {
      const { affiliate, code } = await affiliateWithCode();
      const { purchase, conversionId } = await convertedUser(code);
      const payout = await insertPayout(t, affiliate.affiliateId, {
        amountCents: 2000,
        status,
        periodStart: '2025-07-01',
      });
      await t.database.sql.query("UPDATE conversions SET status = 'approved', payout_id = $2 WHERE id = $1", [
        conversionId,
        payout,
      ]);
      expect((await postWebhook(t, refundEvent(purchase))).body.outcome).toBe('clawed-back');
      expect((await conversion(conversionId)).status).toBe('approved');
      expect(await adjustments(affiliate.affiliateId)).toHaveLength(1);
    }
  });

  it('a refund of a later renewal does not take back the first purchase’s commission', async () => {
    const { affiliate, code } = await affiliateWithCode();
    const { purchase, conversionId } = await convertedUser(code);
    const renewalRefund = refundEvent(purchase, { transaction_id: 'renewal-transaction-3' });
    expect((await postWebhook(t, renewalRefund)).body.outcome).toBe('refund-unmatched');
    expect((await conversion(conversionId)).status).toBe('pending');
    expect(await adjustments(affiliate.affiliateId)).toEqual([]);
  });

  it('finds the refunded purchase by its transaction even under an id it never saw', async () => {
    const { code } = await affiliateWithCode();
    const { purchase, conversionId } = await convertedUser(code);
    const refund = refundEvent(purchase, {
      app_user_id: 'user-new-login',
      original_app_user_id: 'user-new-login',
      aliases: ['user-new-login'],
    });
    expect((await postWebhook(t, refund)).body.outcome).toBe('reversed');
    expect((await conversion(conversionId)).status).toBe('reversed');
  });

  it('a refund without transaction ids reverses the person’s conversion', async () => {
    const { code } = await affiliateWithCode();
    const { purchase, conversionId } = await convertedUser(code);
    const refund = refundEvent(purchase, { transaction_id: null, original_transaction_id: null });
    expect((await postWebhook(t, refund)).body.outcome).toBe('reversed');
    expect((await conversion(conversionId)).status).toBe('reversed');
    expect((await postWebhook(t, refundEvent(purchaseEvent('nobody-at-all')))).body.outcome).toBe('refund-unmatched');
  });

  it('a disabled affiliate’s commission is still taken back when refunded', async () => {
    const { affiliate, code } = await affiliateWithCode();
    const { purchase, conversionId } = await convertedUser(code);
    await t.database.sql.query(
      'UPDATE auth_users SET banned = true WHERE id = (SELECT user_id FROM affiliates WHERE id = $1)',
      [affiliate.affiliateId],
    );
    expect((await postWebhook(t, refundEvent(purchase))).body.outcome).toBe('reversed');
    expect((await conversion(conversionId)).status).toBe('reversed');
  });
});

describe('reverseConversion (operators and refunds)', () => {
  it('answers null for an unknown conversion', async () => {
    expect(
      await reverseConversion(t.context, { conversionId: 987_654_321, reason: 'none', actor: 'admin-1' }),
    ).toBeNull();
  });

  it('reverses once when asked many times at once, with the operator in the audit log', async () => {
    const { affiliate, code } = await affiliateWithCode();
    const { conversionId } = await convertedUser(code);
    const at = new Date(NOW.getTime() + 3_600_000);
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () =>
        reverseConversion(t.context, { conversionId, reason: 'Self-referral', actor: 'admin-7', at }),
      ),
    );
    expect(outcomes.map((outcome) => outcome?.outcome).sort()).toEqual([
      'already-reversed',
      'already-reversed',
      'already-reversed',
      'already-reversed',
      'reversed',
    ]);
    expect(await conversion(conversionId)).toMatchObject({ status: 'reversed', reversal_reason: 'Self-referral' });
    expect(new Date((await conversion(conversionId)).reversed_at!).toISOString()).toBe(at.toISOString());
    expect(await auditActions(conversionId)).toEqual([{ actor: 'admin-7', action: 'conversion.reversed' }]);
    expect(await stats(affiliate)).toMatchObject({ totalConversions: 0, totalEarningsCents: 0 });
  });

  it('claws back a paid conversion once, even when a refund and an operator race', async () => {
    const { affiliate, code } = await affiliateWithCode();
    const { purchase, conversionId } = await convertedUser(code);
    const payout = await insertPayout(t, affiliate.affiliateId, {
      amountCents: 2000,
      status: 'paid',
      periodStart: '2025-07-01',
      paidAt: NOW,
    });
    await t.database.sql.query("UPDATE conversions SET status = 'paid', payout_id = $2 WHERE id = $1", [
      conversionId,
      payout,
    ]);
    const [operator, refund, again] = await Promise.all([
      reverseConversion(t.context, { conversionId, reason: 'Fraud', actor: 'admin-7' }),
      postWebhook(t, refundEvent(purchase)),
      postWebhook(t, refundEvent(purchase)),
    ]);
    expect([operator?.outcome, refund.body.outcome, again.body.outcome].sort()).toEqual([
      'already-reversed',
      'already-reversed',
      'clawed-back',
    ]);
    expect(await adjustments(affiliate.affiliateId)).toHaveLength(1);
    expect((await conversion(conversionId)).status).toBe('paid');
  });
});
