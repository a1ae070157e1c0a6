import { and, eq } from 'drizzle-orm';
import { conversions } from '../db/schema/affiliates.ts';
import type { Tx } from '../db/transaction.ts';
import { lockAffiliate } from './earning-affiliate.ts';
import { percentOf, ruleInForce } from './reward-rules.ts';
import { commissionCreatedEvent } from '../webhooks/events.ts';
import { enqueueWebhookEvent } from '../webhooks/outbox.ts';
import { holdIfUnderReview } from './review.ts';

// A renewal's commission (docs/product/money.md#partner-groups-and-reward-rules): under a percentage rule
// that recurs, each paid renewal of an install whose first purchase earned a commission earns the
// rule's share of its proceeds, for the rule's number of months after that first purchase. The rule
// is the one in force when the renewal occurred (a rule change applies to the events after it); a
// first purchase that was reversed earns no renewals. The commission is a row of `conversions` of
// kind `renewal`, held and approved as any other; it is not a qualified conversion.

export interface NewRenewal {
  sourceEventId: string;
  installId: string;
  appUserId: string;
  occurredAt: Date;
  store: string | null;
  productId: string | null;
  /** USD cents after the store's commission; null without a price. */
  proceedsCents: number | null;
  priceCents: number | null;
  transactionId: string | null;
  originalTransactionId: string | null;
}

export type RecordRenewalResult =
  | { outcome: 'renewal'; conversionId: number; commissionCents: number }
  /** No commission: no first purchase earned one, the rule does not recur, or its months are over. */
  | { outcome: 'renewal-unpaid'; reason: 'no-first-purchase' | 'not-recurring' | 'period-over' | 'no-price' }
  | { outcome: 'affiliate-ineligible' }
  | { outcome: 'already-converted'; conversionId: number | null };

/** `at` plus `months` calendar months (UTC), the day clamped to the month's end. */
export function addMonths(at: Date, months: number): Date {
  const target = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(at.getUTCDate(), lastDay));
  target.setUTCHours(at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds(), at.getUTCMilliseconds());
  return target;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Records the renewal's commission when the affiliate's rule pays one, in the caller's transaction;
 * `now` decides whether the affiliate may still earn.
 */
export async function recordRenewal(tx: Tx, input: NewRenewal, now: Date): Promise<RecordRenewalResult> {
  const [first] = await tx.db
    .select({
      id: conversions.id,
      affiliateId: conversions.affiliateId,
      referralCodeId: conversions.referralCodeId,
      occurredAt: conversions.occurredAt,
      status: conversions.status,
    })
    .from(conversions)
    .where(and(eq(conversions.installId, Number(input.installId)), eq(conversions.kind, 'first-purchase')));
  if (!first || first.status === 'reversed') return { outcome: 'renewal-unpaid', reason: 'no-first-purchase' };

  const affiliate = await lockAffiliate(tx, first.affiliateId, now);
  if (!affiliate?.mayEarn) return { outcome: 'affiliate-ineligible' };
  const rule = await ruleInForce(tx, first.affiliateId, input.occurredAt);
  if (rule.kind !== 'percentage' || rule.recurringMonths === null)
    return { outcome: 'renewal-unpaid', reason: 'not-recurring' };
  if (input.occurredAt >= addMonths(first.occurredAt, rule.recurringMonths))
    return { outcome: 'renewal-unpaid', reason: 'period-over' };
  if (input.proceedsCents === null) return { outcome: 'renewal-unpaid', reason: 'no-price' };

  const percentBasisPoints = rule.percentBasisPoints ?? 0;
  const commissionCents = percentOf(input.proceedsCents, percentBasisPoints);
  const [inserted] = await tx.db
    .insert(conversions)
    .values({
      sourceEventId: input.sourceEventId,
      appUserId: input.appUserId,
      affiliateId: first.affiliateId,
      referralCodeId: first.referralCodeId,
      installId: Number(input.installId),
      kind: 'renewal',
      firstConversionId: first.id,
      store: input.store,
      productId: input.productId,
      occurredAt: input.occurredAt,
      commissionCents,
      rateTier: 'percentage',
      ruleId: rule.id,
      pricing: {
        kind: 'percentage',
        ruleVersion: rule.version,
        proceedsCents: input.proceedsCents,
        percentBasisPoints,
        renewalOf: first.id,
        recurringMonths: rule.recurringMonths,
      },
      approvableAt: new Date(input.occurredAt.getTime() + rule.holdDays * DAY_MS),
      status: 'pending',
      priceCents: input.priceCents,
      priceCurrency: input.priceCents === null ? null : 'USD',
      proceedsCents: input.proceedsCents,
      transactionId: input.transactionId,
      originalTransactionId: input.originalTransactionId,
    })
    .onConflictDoNothing()
    .returning({ id: conversions.id });
  if (!inserted) {
    const [existing] = await tx.db
      .select({ id: conversions.id })
      .from(conversions)
      .where(eq(conversions.sourceEventId, input.sourceEventId));
    return { outcome: 'already-converted', conversionId: existing?.id ?? null };
  }
  await enqueueWebhookEvent(
    tx,
    commissionCreatedEvent({
      conversionId: inserted.id,
      affiliateId: first.affiliateId,
      commissionCents,
      rateTier: 'percentage',
      occurredAt: input.occurredAt,
    }),
    now,
  );
  // A case open on the affiliate, or on this install, holds the renewal's commission too (docs/product/review.md#holding).
  await holdIfUnderReview(tx, {
    conversionId: inserted.id,
    affiliateId: first.affiliateId,
    installId: input.installId,
    at: now,
  });
  return { outcome: 'renewal', conversionId: inserted.id, commissionCents };
}
