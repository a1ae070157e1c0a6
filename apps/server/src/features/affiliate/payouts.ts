import type { PayoutSummary } from '@skanova/shared/affiliate/stats';
import { desc, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { payouts } from '../../db/schema/affiliates.ts';
import { payoutRecordColumns, toPayoutRecord } from '../../domain/payout-record.ts';

// The Payments tab's history (docs/product/routes-and-screens.md#payments-tab: real payouts, newest first). The method snapshot stays in
// the database: the list shows the kind of method, never the account it was paid to. A SEPA payout
// shows the euros it paid once exported (the amount earned stays in USD, docs/product/money.md#payouts); fields not known
// yet are left out.

export async function listPayouts(app: AppContext, affiliateId: string): Promise<PayoutSummary[]> {
  const rows = await app.database.db
    .select(payoutRecordColumns)
    .from(payouts)
    .where(eq(payouts.affiliateId, affiliateId))
    .orderBy(desc(payouts.scheduledFor), desc(payouts.createdAt));
  return rows.map((row) => {
    const payout = toPayoutRecord(row);
    return {
      id: payout.id,
      periodStart: payout.periodStart,
      periodEnd: payout.periodEnd,
      amountCents: payout.amountCents,
      currency: payout.currency,
      method: payout.method,
      status: payout.status,
      scheduledFor: payout.scheduledFor,
      paidAt: payout.paidAt,
      ...(payout.amountPaidCents !== null && payout.paidCurrency !== null
        ? { amountPaidCents: payout.amountPaidCents, paidCurrency: payout.paidCurrency }
        : {}),
      ...(payout.sentAt !== null ? { sentAt: payout.sentAt } : {}),
    };
  });
}
