import type { WebhookEventType } from './constants.ts';

// What each webhook event carries (docs/product/webhooks.md#payload): ids and amounts, never a name,
// an e-mail address, a payment method's details or an operator's free text. Money in integer cents
// with its currency; times as ISO 8601 UTC instants; days as YYYY-MM-DD. Receivers read these
// types; the server builds its events from them, so the two cannot drift.

/** A payout as its events carry it (docs/product/money.md#payouts). */
export interface WebhookPayoutData {
  payoutId: string;
  affiliateId: string;
  /** What the payout pays, in USD cents. */
  amountCents: number;
  currency: string;
  /** In the currency it is paid in (EUR cents for SEPA), once exported; null before. */
  amountPaidCents: number | null;
  paidCurrency: string | null;
  method: 'paypal' | 'bank_transfer';
  /** The payday, YYYY-MM-DD (a 15th). */
  payday: string;
}

export interface WebhookEventData {
  /** A signup (docs/product/rules-and-constants.md#applications-and-disabled-accounts): `active` when approval is automatic. */
  'affiliate.applied': { affiliateId: string; status: 'pending' | 'active' };
  /**
   * The affiliate may earn: an operator approved the application (`operator`), or signup approved it
   * at once (`automatic`, right after its `affiliate.applied`).
   */
  'affiliate.approved': {
    affiliateId: string;
    approvedBy: 'operator' | 'automatic';
    previousStatus: 'pending' | 'refused' | null;
  };
  /** A conversion and its commission, pending its hold (docs/product/money.md#commission-hold). */
  'commission.created': {
    conversionId: string;
    affiliateId: string;
    commissionCents: number;
    currency: 'USD';
    rateTier: 'standard' | 'premium' | 'percentage' | 'campaign';
    occurredAt: string;
  };
  /** The hold ended: the commission is payable. */
  'commission.approved': {
    conversionId: string;
    affiliateId: string;
    commissionCents: number;
    currency: 'USD';
    approvedAt: string;
  };
  /**
   * Taken back (docs/product/money.md#refunds-and-clawback): `reversed` before any payout, or
   * `clawed-back` (a deduction from the next payout) once paid; by a store refund or an operator.
   */
  'commission.reversed': {
    conversionId: string;
    affiliateId: string;
    commissionCents: number;
    currency: 'USD';
    outcome: 'reversed' | 'clawed-back';
    source: 'store-refund' | 'operator';
  };
  'payout.sent': WebhookPayoutData;
  'payout.paid': WebhookPayoutData;
  /** A case opened in the fraud review queue, with the signal that opened it (docs/product/review.md#signals). */
  'review.opened': { reviewId: string; affiliateId: string; signal: string };
}

/** The body of a delivery: one event. */
export interface WebhookEvent<T extends WebhookEventType = WebhookEventType> {
  /** The event's id: the same on every delivery and replay of it (receivers' idempotency key). */
  id: string;
  type: T;
  /** When it happened, ISO 8601 UTC. */
  created: string;
  data: WebhookEventData[T];
}
