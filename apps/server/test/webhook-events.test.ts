import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COMMISSION_HOLD_DAYS } from '@skanova/shared/affiliate/programme';
import { WEBHOOK_EVENT_TYPES } from '@skanova/shared/webhooks/constants';
import { approveDueCommissions } from '../src/domain/commission-approval.ts';
import { reverseConversionIn } from '../src/domain/reverse-conversion.ts';
import { inTransaction } from '../src/db/transaction.ts';
import { markPayouts } from '../src/features/payouts/payout-lifecycle.ts';
import { type TestApp, createTestApp } from './helpers/app.ts';
import {
  type TestAffiliate,
  callFn,
  createTestAffiliate,
  insertCode,
  insertConversion,
  insertPayout,
} from './helpers/affiliates.ts';
import { type TestOperator, createTestOperator } from './helpers/operators.ts';
import { WEBHOOK_AUTH, attributedUser, postWebhook, purchaseEvent, refundEvent } from './helpers/revenuecat.ts';

// The events the product emits (docs/product/webhooks.md#events), each from the code point where
// what it announces happens, in that change's transaction: signup (applied, and approved when
// approval is automatic), an operator's approval, a conversion (commission.created), the end of the
// hold (commission.approved), a refund or an operator's reversal (commission.reversed), a payout
// marked sent or paid. A transaction that rolls back leaves no event; without an endpoint
// subscribed, none is written; no event carries a name, an e-mail address or a payment detail.

const NOW = new Date('2025-06-10T12:00:00.000Z');
const DAY_MS = 86_400_000;

let t: TestApp;
let operator: TestOperator;

beforeAll(async () => {
  t = await createTestApp({ env: { REVENUECAT_WEBHOOK_AUTH: WEBHOOK_AUTH, AFFILIATE_APPROVAL: 'manual' } });
  operator = await createTestOperator(t);
  // One endpoint subscribed to everything (never delivered to here: only the events are read).
  await t.database.sql.query(
    `INSERT INTO webhook_endpoints (url, event_types, secret_sealed) VALUES ('https://hooks.example.com/all', $1::text[], 'sealed')`,
    [WEBHOOK_EVENT_TYPES],
  );
});
afterAll(() => t.close());
beforeEach(async () => {
  t.clock.now = new Date(NOW);
  await t.database.sql.query('DELETE FROM webhook_events');
});

interface EventRow {
  type: string;
  affiliate_id: string | null;
  data: Record<string, unknown>;
  created_at: Date;
}

async function events(): Promise<EventRow[]> {
  const { rows } = await t.database.sql.query<EventRow>(
    'SELECT type, affiliate_id, data, created_at FROM webhook_events ORDER BY seq',
  );
  return rows;
}

async function approvedAffiliate(): Promise<TestAffiliate> {
  const affiliate = await createTestAffiliate(t, { firstName: 'Grace', lastName: 'Hopper' });
  await callFn(
    t,
    'adminSetAffiliateStatus',
    { affiliateId: affiliate.affiliateId, action: 'approve' },
    operator.cookie,
  );
  await t.database.sql.query('DELETE FROM webhook_events');
  return affiliate;
}

describe('affiliate events', () => {
  it('signup emits affiliate.applied; an operator’s approval emits affiliate.approved', async () => {
    const affiliate = await createTestAffiliate(t, { firstName: 'Grace', lastName: 'Hopper' });
    expect(await events()).toEqual([
      {
        type: 'affiliate.applied',
        affiliate_id: affiliate.affiliateId,
        data: { affiliateId: affiliate.affiliateId, status: 'pending' },
        created_at: NOW,
      },
    ]);
    // A refusal emits nothing; the approval after it says what it was.
    await callFn(
      t,
      'adminSetAffiliateStatus',
      { affiliateId: affiliate.affiliateId, action: 'refuse' },
      operator.cookie,
    );
    await callFn(
      t,
      'adminSetAffiliateStatus',
      { affiliateId: affiliate.affiliateId, action: 'approve' },
      operator.cookie,
    );
    expect((await events()).map((event) => [event.type, event.data])).toEqual([
      ['affiliate.applied', { affiliateId: affiliate.affiliateId, status: 'pending' }],
      ['affiliate.approved', { affiliateId: affiliate.affiliateId, approvedBy: 'operator', previousStatus: 'refused' }],
    ]);
    // An approval refused (already approved) emits nothing more.
    const again = await callFn(
      t,
      'adminSetAffiliateStatus',
      { affiliateId: affiliate.affiliateId, action: 'approve' },
      operator.cookie,
    );
    expect(again.status).toBe(400);
    expect(await events()).toHaveLength(2);
  });

  it('with automatic approval, signup emits affiliate.applied then affiliate.approved', async () => {
    const auto = await createTestApp();
    try {
      await auto.database.sql.query(
        `INSERT INTO webhook_endpoints (url, event_types, secret_sealed) VALUES ('https://hooks.example.com/a', '{affiliate.approved}', 'sealed')`,
      );
      const affiliate = await createTestAffiliate(auto);
      const { rows } = await auto.database.sql.query<{ type: string; data: unknown }>(
        'SELECT type, data FROM webhook_events ORDER BY seq',
      );
      expect(rows).toEqual([
        { type: 'affiliate.applied', data: { affiliateId: affiliate.affiliateId, status: 'active' } },
        {
          type: 'affiliate.approved',
          data: { affiliateId: affiliate.affiliateId, approvedBy: 'automatic', previousStatus: null },
        },
      ]);
    } finally {
      await auto.close();
    }
  });
});

describe('commission events', () => {
  it('a conversion emits commission.created, the end of its hold commission.approved, a refund commission.reversed', async () => {
    const affiliate = await approvedAffiliate();
    const { code } = await insertCode(t, affiliate.affiliateId);
    const purchase = purchaseEvent(await attributedUser(t, code), {}, t.clock.now);
    expect((await postWebhook(t, purchase)).body.outcome).toBe('conversion');
    const { rows } = await t.database.sql.query<{ id: number }>(
      'SELECT id::int AS id FROM conversions WHERE source_event_id = $1',
      [purchase.id],
    );
    const conversionId = String(rows[0]!.id);
    const occurredAt = new Date(purchase.purchased_at_ms as number).toISOString();

    t.clock.advance((COMMISSION_HOLD_DAYS + 1) * DAY_MS);
    expect(await approveDueCommissions(t.context)).toEqual({ approved: 1 });
    expect((await postWebhook(t, refundEvent(purchase))).body.outcome).toBe('reversed');

    expect((await events()).map((event) => [event.type, event.affiliate_id, event.data])).toEqual([
      [
        'commission.created',
        affiliate.affiliateId,
        {
          conversionId,
          affiliateId: affiliate.affiliateId,
          commissionCents: 200,
          currency: 'USD',
          rateTier: 'standard',
          occurredAt,
        },
      ],
      [
        'commission.approved',
        affiliate.affiliateId,
        {
          conversionId,
          affiliateId: affiliate.affiliateId,
          commissionCents: 200,
          currency: 'USD',
          approvedAt: new Date(Date.parse(occurredAt) + COMMISSION_HOLD_DAYS * DAY_MS).toISOString(),
        },
      ],
      [
        'commission.reversed',
        affiliate.affiliateId,
        {
          conversionId,
          affiliateId: affiliate.affiliateId,
          commissionCents: 200,
          currency: 'USD',
          outcome: 'reversed',
          source: 'store-refund',
        },
      ],
    ]);
    // Ids and amounts only: nothing of the person, of their e-mail, or of the store's event.
    const text = JSON.stringify(await events());
    for (const personal of [affiliate.email, 'Grace', 'Hopper', 'someone@example.com', purchase.id as string])
      expect(text).not.toContain(personal);
  });

  it('an operator’s reversal of a paid commission emits commission.reversed (clawed back)', async () => {
    const affiliate = await approvedAffiliate();
    const payoutId = await insertPayout(t, affiliate.affiliateId, {
      amountCents: 2000,
      status: 'paid',
      periodStart: '2025-05-01',
    });
    const conversionId = await insertConversion(t, affiliate.affiliateId, { status: 'paid', payoutId });
    const reversed = await callFn(
      t,
      'adminReverseConversion',
      { conversionId: String(conversionId), reason: 'Fraudulent install, refunded by hand' },
      operator.cookie,
    );
    expect(reversed.status).toBe(200);
    expect((await events()).map((event) => event.data)).toEqual([
      {
        conversionId: String(conversionId),
        affiliateId: affiliate.affiliateId,
        commissionCents: 200,
        currency: 'USD',
        outcome: 'clawed-back',
        source: 'operator',
      },
    ]);
    expect(JSON.stringify(await events())).not.toContain('Fraudulent');
  });

  it('emits nothing when the transaction rolls back', async () => {
    const affiliate = await approvedAffiliate();
    const conversionId = await insertConversion(t, affiliate.affiliateId, { status: 'approved' });
    await expect(
      inTransaction(t.context, async (tx) => {
        await reverseConversionIn(tx, { conversionId, reason: 'test', actor: operator.userId, at: t.clock.now });
        expect(await tx.query('SELECT 1 FROM webhook_events')).toMatchObject({ rows: [{}] });
        throw new Error('a later step of the same transaction failed');
      }),
    ).rejects.toThrow('a later step');
    expect(await events()).toEqual([]);
    const { rows } = await t.database.sql.query<{ status: string }>('SELECT status FROM conversions WHERE id = $1', [
      conversionId,
    ]);
    expect(rows).toEqual([{ status: 'approved' }]);
  });
});

describe('payout events', () => {
  it('marking a payout sent then paid emits payout.sent then payout.paid; failed emits nothing', async () => {
    const affiliate = await approvedAffiliate();
    const payoutId = await insertPayout(t, affiliate.affiliateId, {
      amountCents: 2400,
      status: 'scheduled',
      periodStart: '2025-05-01',
      scheduledFor: '2025-06-15',
      method: 'bank_transfer',
    });
    await markPayouts(t.context, {
      payoutIds: [payoutId],
      status: 'sent',
      reference: 'BATCH-7',
      actor: operator.userId,
    });
    await markPayouts(t.context, { payoutIds: [payoutId], status: 'paid', actor: operator.userId });
    const payout = {
      payoutId,
      affiliateId: affiliate.affiliateId,
      amountCents: 2400,
      currency: 'USD',
      amountPaidCents: null,
      paidCurrency: null,
      method: 'bank_transfer',
      payday: '2025-06-15',
    };
    expect((await events()).map((event) => [event.type, event.data])).toEqual([
      ['payout.sent', payout],
      ['payout.paid', payout],
    ]);

    const other = await insertPayout(t, affiliate.affiliateId, {
      amountCents: 2400,
      status: 'scheduled',
      periodStart: '2025-06-01',
    });
    await markPayouts(t.context, { payoutIds: [other], status: 'failed', reason: 'closed', actor: operator.userId });
    expect(await events()).toHaveLength(2);
  });
});

describe('without an endpoint subscribed', () => {
  it('writes no event (signup excepted, whose events the worker dispatches to none)', async () => {
    await t.database.sql.query('UPDATE webhook_endpoints SET enabled = false');
    try {
      const affiliate = await approvedAffiliate();
      await insertConversion(t, affiliate.affiliateId, {
        status: 'pending',
        occurredAt: new Date(NOW.getTime() - (COMMISSION_HOLD_DAYS + 1) * DAY_MS),
      });
      expect(await approveDueCommissions(t.context)).toEqual({ approved: 1 });
      expect(await events()).toEqual([]);
    } finally {
      await t.database.sql.query('UPDATE webhook_endpoints SET enabled = true');
    }
  });
});
