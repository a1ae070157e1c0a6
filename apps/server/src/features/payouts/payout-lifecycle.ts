import type { PayoutStatus } from '@skanova/shared/affiliate/stats';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { commissionAdjustments, conversions, payouts } from '../../db/schema/affiliates.ts';
import { CallableError } from '../../lib/callable-error.ts';
import { inTransaction } from '../../db/transaction.ts';
import { recordAudit } from '../../domain/audit-log.ts';
import { loadEmailRecipient, payoutSentEmail } from '../../email/affiliate-messages.ts';
import { enqueueEmail } from '../../email/outbox.ts';
import { payoutEvent } from '../../webhooks/events.ts';
import { enqueueWebhookEvent } from '../../webhooks/outbox.ts';

// A payout's lifecycle (docs/product/money.md#payouts): scheduled → sent → paid, or scheduled | sent → failed.
// - sent: the operator uploaded the PayPal batch or the SEPA file; the affiliate is told (if they
//   want payment e-mails), through the outbox, in the same transaction.
// - paid: the money arrived; its conversions become `paid`.
// - failed: the amounts go back to the balance (its conversions and adjustments are released), so
//   the next run pays them; the reason is kept.
// Several payouts change together or not at all: one transaction, every row locked first.

export type PayoutTarget = 'sent' | 'paid' | 'failed';

export interface MarkPayoutsInput {
  payoutIds: readonly string[];
  status: PayoutTarget;
  /** The PayPal batch id or bank reference (kept on the payout). */
  reference?: string | undefined;
  /** Why it failed: required for `failed`. */
  reason?: string | undefined;
  /** The operator's user id. */
  actor: string;
}

/** Where each status may go from. */
const ALLOWED_FROM: Record<PayoutTarget, readonly PayoutStatus[]> = {
  sent: ['scheduled'],
  paid: ['sent'],
  failed: ['scheduled', 'sent'],
};

/** Moves the payouts to `status`; answers how many changed (all of them, or none with an error). */
export async function markPayouts(app: AppContext, input: MarkPayoutsInput): Promise<{ updated: number }> {
  const ids = [...new Set(input.payoutIds)].sort();
  if (input.status === 'failed' && !input.reason) {
    throw new CallableError('invalid-argument', 'A failed payout needs a reason.', { code: 'reason-required' });
  }
  const now = app.now();
  /** The reference given, or the one the payout already has. */
  const keptReference = sql`coalesce(${input.reference ?? null}, ${payouts.reference})`;

  return inTransaction(app, async (tx) => {
    // Locked in id order: two operators marking overlapping sets wait for each other, never deadlock.
    const rows = await tx.db
      .select({
        id: payouts.id,
        affiliateId: payouts.affiliateId,
        status: payouts.status,
        amountCents: payouts.amountCents,
        currency: payouts.currency,
        amountPaidCents: payouts.amountPaidCents,
        paidCurrency: payouts.paidCurrency,
        method: payouts.method,
        scheduledFor: payouts.scheduledFor,
      })
      .from(payouts)
      .where(inArray(payouts.id, ids))
      .orderBy(asc(payouts.id))
      .for('update');
    const found = new Set(rows.map((row) => row.id));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0)
      throw new CallableError('not-found', `No payout ${missing.join(', ')}.`, {
        code: 'payout-not-found',
        payoutIds: missing,
      });
    const refused = rows.filter((row) => !ALLOWED_FROM[input.status].includes(row.status));
    if (refused.length > 0) {
      const from = ALLOWED_FROM[input.status].join(' or ');
      throw new CallableError(
        'failed-precondition',
        `Only ${from} payouts can be marked ${input.status}: ${refused.map((row) => `${row.id} is ${row.status}`).join(', ')}.`,
        {
          code: 'invalid-transition',
          to: input.status,
          payouts: refused.map((row) => ({ id: row.id, status: row.status })),
        },
      );
    }

    for (const payout of rows) {
      if (input.status === 'sent') {
        await tx.db
          .update(payouts)
          .set({ status: 'sent', sentAt: now, reference: keptReference })
          .where(eq(payouts.id, payout.id));
        const recipient = await loadEmailRecipient(tx, payout.affiliateId);
        if (recipient?.notifyPayments) {
          const message = payoutSentEmail(app, recipient, {
            amountCents: payout.amountCents,
            currency: payout.currency,
            amountPaidCents: payout.amountPaidCents,
            paidCurrency: payout.paidCurrency,
            method: payout.method,
            payday: payout.scheduledFor,
          });
          await enqueueEmail(tx, message, { kind: 'payout-sent', dedupeKey: `payout-sent:${payout.id}` });
        }
      } else if (input.status === 'paid') {
        await tx.db
          .update(payouts)
          .set({ status: 'paid', paidAt: now, reference: keptReference })
          .where(eq(payouts.id, payout.id));
        await tx.db
          .update(conversions)
          .set({ status: 'paid' })
          .where(and(eq(conversions.payoutId, payout.id), eq(conversions.status, 'approved')));
      } else {
        await tx.db
          .update(payouts)
          .set({ status: 'failed', failedAt: now, failureReason: input.reason ?? null, reference: keptReference })
          .where(eq(payouts.id, payout.id));
        await tx.db.update(conversions).set({ payoutId: null }).where(eq(conversions.payoutId, payout.id));
        await tx.db
          .update(commissionAdjustments)
          .set({ payoutId: null })
          .where(eq(commissionAdjustments.payoutId, payout.id));
      }
      await recordAudit(tx, {
        actor: input.actor,
        action: `payout.${input.status}`,
        subject: payout.id,
        details: {
          affiliateId: payout.affiliateId,
          from: payout.status,
          amountCents: payout.amountCents,
          ...(input.reference ? { reference: input.reference } : {}),
          ...(input.status === 'failed' ? { reason: input.reason } : {}),
        },
        at: now,
      });
      if (input.status !== 'failed') await enqueueWebhookEvent(tx, payoutEvent(`payout.${input.status}`, payout), now);
    }
    return { updated: rows.length };
  });
}
