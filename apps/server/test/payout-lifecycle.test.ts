import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPayouts } from '../src/features/payouts/payout-run.ts';
import { type TestApp, createTestApp } from './helpers/app.ts';
import { type TestAffiliate, callFn } from './helpers/affiliates.ts';
import {
  createOperator,
  createPayee,
  expectPayoutsMatchTheirRows,
  insertAdjustment,
  insertApproved,
  moneyOf,
  payoutsOf,
} from './fixtures/payouts.ts';

// adminMarkPayouts (docs/product/money.md#payouts): scheduled → sent → paid, scheduled | sent → failed; anything
// else refused with nothing changed; the affiliate told when the money is sent; a failure gives
// the amount back to the balance. The dashboard's figures follow each step.

const PAYDAY = '2025-06-15';
const MAY = new Date('2025-05-10T12:00:00.000Z');

let t: TestApp;
let operator: { cookie: string; userId: string };
beforeEach(async () => {
  t = await createTestApp();
  t.clock.now = new Date('2025-06-15T06:00:00.000Z');
  operator = await createOperator(t);
});
afterEach(() => t.close());

/** An affiliate paid `count` × $2 (and an adjustment) on the payday, with its payout id. */
async function scheduledPayee(
  method: 'paypal' | 'bank_transfer',
  count: number,
  overrides: Record<string, unknown> = {},
) {
  const affiliate = await createPayee(t, method, overrides);
  await insertApproved(t, affiliate.affiliateId, count, MAY);
  await insertAdjustment(t, affiliate.affiliateId, { cents: 150, createdAt: MAY });
  return affiliate;
}

async function payoutIdOf(affiliate: TestAffiliate): Promise<string> {
  const [payout] = await payoutsOf(t, affiliate.affiliateId);
  return payout!.id;
}

const mark = (data: Record<string, unknown>) => callFn(t, 'adminMarkPayouts', data, operator.cookie);

async function outbox() {
  const { rows } = await t.database.sql.query<{
    kind: string;
    dedupe_key: string;
    to_address: string;
    subject: string;
    text_body: string;
  }>(
    "SELECT kind, dedupe_key, to_address, subject, text_body FROM email_outbox WHERE kind = 'payout-sent' ORDER BY id",
  );
  return rows;
}

async function audit(payoutId: string) {
  const { rows } = await t.database.sql.query<{ actor: string; action: string; details: Record<string, unknown> }>(
    'SELECT actor, action, details FROM audit_log WHERE subject = $1 ORDER BY id',
    [payoutId],
  );
  return rows;
}

describe('adminMarkPayouts', () => {
  it('sends, then pays: e-mail on sending, conversions paid, balance settled', async () => {
    const affiliate = await scheduledPayee('paypal', 10, { language: 'fr', firstName: 'Zoé' });
    await runPayouts(t.context, PAYDAY);
    const payoutId = await payoutIdOf(affiliate);
    const scheduled = await moneyOf(t, affiliate);
    expect(scheduled).toMatchObject({ totalEarningsCents: 2150, unpaidEarningsCents: 2150 });

    const sent = await mark({ payoutIds: [payoutId], status: 'sent', reference: 'PAYPAL-BATCH-42' });
    expect(sent).toMatchObject({ status: 200, body: { result: { updated: 1 } } });
    expect((await payoutsOf(t, affiliate.affiliateId))[0]).toMatchObject({
      status: 'sent',
      sent: true,
      paid: false,
      reference: 'PAYPAL-BATCH-42',
    });
    expect(await moneyOf(t, affiliate)).toMatchObject({ totalEarningsCents: 2150, unpaidEarningsCents: 0 });
    const mails = await outbox();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ dedupe_key: `payout-sent:${payoutId}`, to_address: affiliate.email });
    // In the affiliate's language, with the amount.
    expect(mails[0]!.text_body).toContain('Zoé');
    expect(`${mails[0]!.subject} ${mails[0]!.text_body}`).toMatch(/21,50/);

    const paid = await mark({ payoutIds: [payoutId], status: 'paid' });
    expect(paid.body.result).toEqual({ updated: 1 });
    expect((await payoutsOf(t, affiliate.affiliateId))[0]).toMatchObject({
      status: 'paid',
      paid: true,
      reference: 'PAYPAL-BATCH-42',
    });
    const { rows } = await t.database.sql.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM conversions WHERE affiliate_id = $1 GROUP BY status',
      [affiliate.affiliateId],
    );
    expect(rows).toEqual([{ status: 'paid', n: 10 }]);
    expect(await moneyOf(t, affiliate)).toMatchObject({
      totalEarningsCents: 2150,
      unpaidEarningsCents: 0,
      approvedUnpaidCents: 0,
    });
    expect(await outbox()).toHaveLength(1);

    expect(await audit(payoutId)).toEqual([
      {
        actor: operator.userId,
        action: 'payout.sent',
        details: {
          affiliateId: affiliate.affiliateId,
          from: 'scheduled',
          amountCents: 2150,
          reference: 'PAYPAL-BATCH-42',
        },
      },
      {
        actor: operator.userId,
        action: 'payout.paid',
        details: { affiliateId: affiliate.affiliateId, from: 'sent', amountCents: 2150 },
      },
    ]);
    // The affiliate's history shows it paid.
    const history = await callFn(t, 'getAffiliatePayouts', null, affiliate.cookie);
    expect(history.body.result.payouts[0]).toMatchObject({
      id: payoutId,
      status: 'paid',
      amountCents: 2150,
      sentAt: t.clock.now.toISOString(),
      paidAt: t.clock.now.toISOString(),
    });
  });

  it('e-mails nobody who turned payment e-mails off', async () => {
    const affiliate = await scheduledPayee('paypal', 10);
    await callFn(
      t,
      'updateNotificationPreferences',
      { conversions: true, payments: false, news: true },
      affiliate.cookie,
    );
    await runPayouts(t.context, PAYDAY);
    expect((await mark({ payoutIds: [await payoutIdOf(affiliate)], status: 'sent' })).status).toBe(200);
    expect(await outbox()).toEqual([]);
  });

  it('fails a payout: its amount goes back to the balance, with the reason kept', async () => {
    const affiliate = await scheduledPayee('bank_transfer', 10);
    await runPayouts(t.context, PAYDAY);
    const payoutId = await payoutIdOf(affiliate);
    const before = await moneyOf(t, affiliate);
    await mark({ payoutIds: [payoutId], status: 'sent' });

    const noReason = await mark({ payoutIds: [payoutId], status: 'failed' });
    expect(noReason.body.error).toMatchObject({ status: 'INVALID_ARGUMENT', details: { code: 'reason-required' } });
    const failed = await mark({ payoutIds: [payoutId], status: 'failed', reason: 'Account closed (AC04)' });
    expect(failed.body.result).toEqual({ updated: 1 });
    expect((await payoutsOf(t, affiliate.affiliateId))[0]).toMatchObject({
      status: 'failed',
      failed: true,
      failure_reason: 'Account closed (AC04)',
    });
    const { rows } = await t.database.sql.query<{ held: number }>(
      `SELECT ((SELECT count(*) FROM conversions WHERE payout_id = $1) + (SELECT count(*) FROM commission_adjustments WHERE payout_id = $1))::int AS held`,
      [payoutId],
    );
    expect(rows[0]!.held).toBe(0);
    // Unpaid again, and payable on the next payday.
    expect(await moneyOf(t, affiliate)).toEqual({ ...before, payableCents: 2150 });
    await expectPayoutsMatchTheirRows(t);
    expect((await audit(payoutId)).at(-1)).toMatchObject({
      action: 'payout.failed',
      details: { from: 'sent', reason: 'Account closed (AC04)' },
    });
  });

  it('refuses a move the lifecycle does not allow, and changes nothing of a refused batch', async () => {
    const first = await scheduledPayee('paypal', 10);
    const second = await scheduledPayee('paypal', 11);
    await runPayouts(t.context, PAYDAY);
    const [a, b] = [await payoutIdOf(first), await payoutIdOf(second)];
    const before = await payoutsOf(t);

    // scheduled → paid skips sending.
    const skip = await mark({ payoutIds: [a], status: 'paid' });
    expect(skip.status).toBe(400);
    expect(skip.body.error).toMatchObject({
      status: 'FAILED_PRECONDITION',
      details: { code: 'invalid-transition', to: 'paid', payouts: [{ id: a, status: 'scheduled' }] },
    });
    expect(skip.body.error?.message).toContain(`${a} is scheduled`);

    // One payout may move, the other not: neither moves.
    await mark({ payoutIds: [b], status: 'sent' });
    const mixed = await mark({ payoutIds: [a, b], status: 'sent' });
    expect(mixed.body.error).toMatchObject({
      status: 'FAILED_PRECONDITION',
      details: { payouts: [{ id: b, status: 'sent' }] },
    });
    expect((await payoutsOf(t, first.affiliateId))[0]).toEqual(before.find((payout) => payout.id === a));
    expect(await outbox()).toHaveLength(1);

    await mark({ payoutIds: [b], status: 'paid' });
    for (const status of ['sent', 'failed', 'paid']) {
      const again = await mark({ payoutIds: [b], status, reason: 'late' });
      expect({ status, code: again.body.error?.details?.code }).toEqual({ status, code: 'invalid-transition' });
    }
    await mark({ payoutIds: [a], status: 'failed', reason: 'Wrong e-mail' });
    for (const status of ['sent', 'paid', 'failed']) {
      expect((await mark({ payoutIds: [a], status, reason: 'again' })).body.error?.details?.code).toBe(
        'invalid-transition',
      );
    }

    const unknown = await mark({ payoutIds: ['00000000-0000-4000-8000-000000000000'], status: 'sent' });
    expect(unknown).toMatchObject({
      status: 404,
      body: { error: { status: 'NOT_FOUND', details: { code: 'payout-not-found' } } },
    });
    for (const data of [
      { payoutIds: [], status: 'sent' },
      { payoutIds: ['nope'], status: 'sent' },
      { payoutIds: [a], status: 'scheduled' },
      { payoutIds: [a], status: 'sent', extra: 1 },
    ]) {
      expect((await mark(data)).body.error?.status).toBe('INVALID_ARGUMENT');
    }
  });
});

describe('adminListPayouts', () => {
  it('lists payouts by payday and status with who is paid, never their account', async () => {
    const paypal = await scheduledPayee('paypal', 10, { firstName: 'Grace', lastName: 'Hopper' });
    const bank = await scheduledPayee('bank_transfer', 12, { firstName: 'Alan', lastName: 'Turing' });
    await runPayouts(t.context, PAYDAY);
    await mark({ payoutIds: [await payoutIdOf(bank)], status: 'sent', reference: 'SEPA-1' });

    const all = await callFn(t, 'adminListPayouts', {}, operator.cookie);
    expect(all.status).toBe(200);
    expect(all.body.result.payouts.map((payout: { affiliateName: string }) => payout.affiliateName)).toEqual([
      'Grace Hopper',
      'Alan Turing',
    ]);
    const gracePayout = all.body.result.payouts[0];
    expect(gracePayout).toEqual({
      id: await payoutIdOf(paypal),
      affiliateId: paypal.affiliateId,
      affiliateName: 'Grace Hopper',
      affiliateEmail: paypal.email,
      periodStart: '2025-05-01',
      periodEnd: '2025-05-31',
      amountCents: 2150,
      currency: 'USD',
      method: 'paypal',
      status: 'scheduled',
      scheduledFor: PAYDAY,
      exchangeRate: null,
      amountPaidCents: null,
      paidCurrency: null,
      reference: null,
      failureReason: null,
      sentAt: null,
      paidAt: null,
      failedAt: null,
      transferReference: expect.stringMatching(/^[0-9A-Z]{25}$/),
      exportId: null,
    });
    expect(JSON.stringify(all.body)).not.toContain(bank.iban!.slice(4));
    const sent = await callFn(t, 'adminListPayouts', { status: 'sent' }, operator.cookie);
    expect(
      sent.body.result.payouts.map((payout: { affiliateId: string; reference: string }) => [
        payout.affiliateId,
        payout.reference,
      ]),
    ).toEqual([[bank.affiliateId, 'SEPA-1']]);
    expect(
      (await callFn(t, 'adminListPayouts', { payday: '2025-05-15' }, operator.cookie)).body.result.payouts,
    ).toEqual([]);
    expect((await callFn(t, 'adminListPayouts', { payday: '2025-05-14' }, operator.cookie)).body.error?.status).toBe(
      'INVALID_ARGUMENT',
    );
  });
});

describe('the operator’s payout functions', () => {
  it('refuse an affiliate (permission-denied) and an anonymous caller (unauthenticated)', async () => {
    const affiliate = await scheduledPayee('paypal', 10);
    await runPayouts(t.context, PAYDAY);
    const payoutId = await payoutIdOf(affiliate);
    const before = await payoutsOf(t);
    const calls: [string, unknown][] = [
      ['adminListPayouts', {}],
      ['adminRunPayouts', { payday: PAYDAY }],
      ['adminExportPayouts', { kind: 'paypal', payday: PAYDAY }],
      ['adminMarkPayouts', { payoutIds: [payoutId], status: 'sent' }],
    ];
    for (const [name, data] of calls) {
      const asAffiliate = await callFn(t, name, data, affiliate.cookie);
      expect({ name, status: asAffiliate.status, error: asAffiliate.body.error?.status }).toEqual({
        name,
        status: 403,
        error: 'PERMISSION_DENIED',
      });
      const anonymous = await callFn(t, name, data);
      expect({ name, status: anonymous.status }).toEqual({ name, status: 401 });
    }
    expect(await payoutsOf(t)).toEqual(before);
    const { rows } = await t.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM payout_exports');
    expect(rows[0]!.n).toBe(0);
  });
});
