import type { AppServices } from '../services.ts';
import { type TransactionQuery, inTransaction } from '../db/transaction.ts';

// Taking a commission back (BRIEF §5.4), for a store refund or an operator's decision:
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

interface ConversionRow {
  affiliate_id: string;
  status: string;
  commission_cents: number;
  refunded_at: string | null;
  payout_status: string | null;
}

/** Payouts that already hold a conversion's amount (a failed payout returned it to the balance). */
const HOLDING_PAYOUT_STATUSES = new Set(['scheduled', 'sent', 'paid']);

/** As reverseConversion, inside the caller's transaction (a webhook records its event in the same one). */
export async function reverseConversionIn(
  tx: TransactionQuery,
  input: Required<ReverseConversionInput>,
): Promise<{ outcome: ReverseOutcome } | null> {
  const { rows } = await tx.query<ConversionRow>(
    `SELECT c.affiliate_id, c.status, c.commission_cents, c.refunded_at::text, p.status AS payout_status
     FROM conversions c LEFT JOIN payouts p ON p.id = c.payout_id
     WHERE c.id = $1
     FOR UPDATE OF c`,
    [input.conversionId],
  );
  const conversion = rows[0];
  if (!conversion) return null;
  if (conversion.status === 'reversed' || conversion.refunded_at !== null) return { outcome: 'already-reversed' };

  const at = input.at.toISOString();
  const inPayout =
    conversion.status === 'paid' ||
    (conversion.payout_status !== null && HOLDING_PAYOUT_STATUSES.has(conversion.payout_status));
  if (inPayout) {
    await tx.query(
      `INSERT INTO commission_adjustments (affiliate_id, conversion_id, amount_cents, reason, created_at) VALUES ($1, $2, $3, $4, $5)`,
      [conversion.affiliate_id, input.conversionId, -conversion.commission_cents, input.reason, at],
    );
    await tx.query('UPDATE conversions SET refunded_at = $2 WHERE id = $1', [input.conversionId, at]);
  } else {
    await tx.query(`UPDATE conversions SET status = 'reversed', reversed_at = $2, reversal_reason = $3 WHERE id = $1`, [
      input.conversionId,
      at,
      input.reason,
    ]);
  }
  const outcome: ReverseOutcome = inPayout ? 'clawed-back' : 'reversed';
  await tx.query('INSERT INTO audit_log (actor, action, subject, details, created_at) VALUES ($1, $2, $3, $4, $5)', [
    input.actor,
    `conversion.${outcome}`,
    String(input.conversionId),
    JSON.stringify({
      affiliateId: conversion.affiliate_id,
      reason: input.reason,
      commissionCents: conversion.commission_cents,
    }),
    at,
  ]);
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
