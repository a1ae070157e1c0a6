import { eq } from 'drizzle-orm';
import type { AppServices } from '../services.ts';
import { commissionAdjustments, conversions, payouts } from '../db/schema/affiliates.ts';
import { type Tx, inTransaction } from '../db/transaction.ts';
import { recordAudit } from './audit-log.ts';
import { commissionReversedEvent } from '../webhooks/events.ts';
import { enqueueWebhookEvent } from '../webhooks/outbox.ts';

// Taking a commission back (docs/product/money.md#refunds-and-clawback), for a store refund or an operator's decision:
// - not yet in a payout (or only in a failed one): the conversion is reversed and stops counting;
// - already in a scheduled, sent or paid payout (or marked paid): its amount is fixed there, so a
//   negative adjustment of the same amount is taken from the next payout; the conversion keeps its
//   status and is marked refunded.
// Never both and never twice: the conversion's row is locked, and a reversed or refunded conversion
// is left as it is.

export interface ReverseConversionInput {
  conversionId: number;
  reason: string;
  /** Who decided: an operator's user id, or `revenuecat` for a store refund. */
  actor: string;
  at?: Date;
}

export type ReverseOutcome = 'reversed' | 'clawed-back' | 'already-reversed';

/** Payouts that already hold a conversion's amount (a failed payout returned it to the balance). */
const HOLDING_PAYOUT_STATUSES = new Set(['scheduled', 'sent', 'paid']);

/** As reverseConversion, inside the caller's transaction (a webhook records its event in the same one). */
export async function reverseConversionIn(
  tx: Tx,
  input: Required<ReverseConversionInput>,
): Promise<{ outcome: ReverseOutcome } | null> {
  const [conversion] = await tx.db
    .select({
      affiliateId: conversions.affiliateId,
      status: conversions.status,
      commissionCents: conversions.commissionCents,
      refundedAt: conversions.refundedAt,
      payoutStatus: payouts.status,
    })
    .from(conversions)
    .leftJoin(payouts, eq(payouts.id, conversions.payoutId))
    .where(eq(conversions.id, input.conversionId))
    .for('update', { of: conversions });
  if (!conversion) return null;
  if (conversion.status === 'reversed' || conversion.refundedAt !== null) return { outcome: 'already-reversed' };

  const at = input.at;
  const inPayout =
    conversion.status === 'paid' ||
    (conversion.payoutStatus !== null && HOLDING_PAYOUT_STATUSES.has(conversion.payoutStatus));
  if (inPayout) {
    await tx.db.insert(commissionAdjustments).values({
      affiliateId: conversion.affiliateId,
      conversionId: input.conversionId,
      amountCents: -conversion.commissionCents,
      reason: input.reason,
      createdAt: at,
    });
    await tx.db.update(conversions).set({ refundedAt: at }).where(eq(conversions.id, input.conversionId));
  } else {
    await tx.db
      .update(conversions)
      .set({ status: 'reversed', reversedAt: at, reversalReason: input.reason })
      .where(eq(conversions.id, input.conversionId));
  }
  const outcome: ReverseOutcome = inPayout ? 'clawed-back' : 'reversed';
  await recordAudit(tx, {
    actor: input.actor,
    action: `conversion.${outcome}`,
    subject: String(input.conversionId),
    details: {
      affiliateId: conversion.affiliateId,
      reason: input.reason,
      commissionCents: conversion.commissionCents,
    },
    at: input.at,
  });
  const reversed = { ...conversion, conversionId: input.conversionId, outcome, actor: input.actor };
  await enqueueWebhookEvent(tx, commissionReversedEvent(reversed), input.at);
  return { outcome };
}

/** Reverses (or claws back) one conversion; null when there is no such conversion. */
export async function reverseConversion(
  app: AppServices,
  input: ReverseConversionInput,
): Promise<{ outcome: ReverseOutcome } | null> {
  const at = input.at ?? app.now();
  return inTransaction(app, (tx) => reverseConversionIn(tx, { ...input, at }));
}
