import { payouts } from '../db/schema/affiliates.ts';

// A payout as the lists read it (the affiliate's Payments tab, the operator's payout list): one
// selection of the `payouts` columns and one reading of it, so that both lists say the same thing.
// The method snapshot stays in the database: neither list shows the account a payout went to.

/** The `payouts` columns both lists read (a Drizzle selection). */
export const payoutRecordColumns = {
  id: payouts.id,
  periodStart: payouts.periodStart,
  periodEnd: payouts.periodEnd,
  amountCents: payouts.amountCents,
  currency: payouts.currency,
  method: payouts.method,
  status: payouts.status,
  scheduledFor: payouts.scheduledFor,
  exchangeRate: payouts.exchangeRate,
  amountPaidCents: payouts.amountPaidCents,
  paidCurrency: payouts.paidCurrency,
  reference: payouts.reference,
  failureReason: payouts.failureReason,
  sentAt: payouts.sentAt,
  paidAt: payouts.paidAt,
  failedAt: payouts.failedAt,
  exportId: payouts.exportId,
};

/** A row of `payoutRecordColumns`, as the schema types it. */
export type PayoutRecordRow = Pick<typeof payouts.$inferSelect, keyof typeof payoutRecordColumns>;

/** A payout with its times as ISO instants (null until they happen). */
export interface PayoutRecord extends Omit<PayoutRecordRow, 'sentAt' | 'paidAt' | 'failedAt'> {
  sentAt: string | null;
  paidAt: string | null;
  failedAt: string | null;
}

const iso = (at: Date | null) => (at === null ? null : at.toISOString());

export function toPayoutRecord(row: PayoutRecordRow): PayoutRecord {
  return {
    ...row,
    sentAt: iso(row.sentAt),
    paidAt: iso(row.paidAt),
    failedAt: iso(row.failedAt),
  };
}
