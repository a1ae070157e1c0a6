import type { WebhookEventType } from '@skanova/shared/webhooks/constants';
import type { WebhookEventData, WebhookPayoutData } from '@skanova/shared/webhooks/events';

// The events the product emits (docs/product/webhooks.md#events), built from the shared payload types
// so that what is sent is what receivers are told. Each names the affiliate it is about: deliveries
// to an endpoint keep their order per affiliate (docs/product/webhooks.md#ordering).

/** An event before it is written: its type, the affiliate it orders by, and its data. */
export interface NewWebhookEvent<T extends WebhookEventType = WebhookEventType> {
  type: T;
  affiliateId: string | null;
  data: WebhookEventData[T];
}

function event<T extends WebhookEventType>(type: T, data: WebhookEventData[T] & { affiliateId: string }) {
  return { type, affiliateId: data.affiliateId, data } satisfies NewWebhookEvent<T>;
}

/** A signup; with automatic approval, the approval follows it in the same transaction. */
export function applicationEvents(affiliateId: string, status: 'pending' | 'active'): NewWebhookEvent[] {
  const applied = event('affiliate.applied', { affiliateId, status });
  if (status !== 'active') return [applied];
  return [applied, event('affiliate.approved', { affiliateId, approvedBy: 'automatic', previousStatus: null })];
}

/** An operator's approval of an application that was `previousStatus`. */
export function affiliateApprovedEvent(
  affiliateId: string,
  previousStatus: 'pending' | 'refused' | 'active',
): NewWebhookEvent<'affiliate.approved'> {
  return event('affiliate.approved', {
    affiliateId,
    approvedBy: 'operator',
    previousStatus: previousStatus === 'active' ? null : previousStatus,
  });
}

export function commissionCreatedEvent(input: {
  conversionId: number | string;
  affiliateId: string;
  commissionCents: number;
  rateTier: 'standard' | 'premium' | 'percentage' | 'campaign';
  occurredAt: Date;
}): NewWebhookEvent<'commission.created'> {
  return event('commission.created', {
    conversionId: String(input.conversionId),
    affiliateId: input.affiliateId,
    commissionCents: input.commissionCents,
    currency: 'USD',
    rateTier: input.rateTier,
    occurredAt: input.occurredAt.toISOString(),
  });
}

export function commissionApprovedEvent(input: {
  conversionId: number | string;
  affiliateId: string;
  commissionCents: number;
  approvedAt: Date;
}): NewWebhookEvent<'commission.approved'> {
  return event('commission.approved', {
    conversionId: String(input.conversionId),
    affiliateId: input.affiliateId,
    commissionCents: input.commissionCents,
    currency: 'USD',
    approvedAt: input.approvedAt.toISOString(),
  });
}

export function commissionReversedEvent(input: {
  conversionId: number | string;
  affiliateId: string;
  commissionCents: number;
  outcome: 'reversed' | 'clawed-back';
  /** Who decided: `revenuecat` for a store refund, else an operator. */
  actor: string;
}): NewWebhookEvent<'commission.reversed'> {
  return event('commission.reversed', {
    conversionId: String(input.conversionId),
    affiliateId: input.affiliateId,
    commissionCents: input.commissionCents,
    currency: 'USD',
    outcome: input.outcome,
    source: input.actor === 'revenuecat' ? 'store-refund' : 'operator',
  });
}

export function payoutEvent(
  type: 'payout.sent' | 'payout.paid',
  payout: {
    id: string;
    affiliateId: string;
    amountCents: number;
    currency: string;
    amountPaidCents: number | null;
    paidCurrency: string | null;
    method: WebhookPayoutData['method'];
    scheduledFor: string;
  },
): NewWebhookEvent<'payout.sent' | 'payout.paid'> {
  return event(type, {
    payoutId: payout.id,
    affiliateId: payout.affiliateId,
    amountCents: payout.amountCents,
    currency: payout.currency,
    amountPaidCents: payout.amountPaidCents,
    paidCurrency: payout.paidCurrency,
    method: payout.method,
    payday: payout.scheduledFor,
  });
}

export function reviewOpenedEvent(input: {
  caseId: number;
  affiliateId: string;
  /** The signal that opened the case (docs/product/review.md#signals). */
  kind: string;
}): NewWebhookEvent<'review.opened'> {
  return event('review.opened', { reviewId: String(input.caseId), affiliateId: input.affiliateId, signal: input.kind });
}
