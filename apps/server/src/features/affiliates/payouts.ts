import type { PaymentMethodType } from '@skanova/shared/affiliate/payment-method';
import type { PayoutStatus, PayoutSummary } from '@skanova/shared/affiliate/stats';
import type { AppContext } from '../../context.ts';

// The Payments tab's history (BRIEF §5.9: real payouts, newest first). The method snapshot stays in
// the database: the list shows the kind of method, never the account it was paid to. A SEPA payout
// shows the euros it paid once exported (the amount earned stays in USD, BRIEF §6); fields not known
// yet are left out.

interface PayoutRow {
  id: string;
  period_start: string;
  period_end: string;
  amount_cents: number;
  currency: string;
  method: PaymentMethodType;
  status: PayoutStatus;
  scheduled_for: string;
  amount_paid_cents: number | null;
  paid_currency: string | null;
  sent_at_ms: number | null;
  paid_at_ms: number | null;
}

const PAYOUTS_SQL = `
SELECT id::text, period_start::text, period_end::text, amount_cents, currency, method, status, scheduled_for::text,
       amount_paid_cents, paid_currency,
       (extract(epoch FROM sent_at) * 1000)::float8 AS sent_at_ms,
       (extract(epoch FROM paid_at) * 1000)::float8 AS paid_at_ms
FROM payouts WHERE affiliate_id = $1
ORDER BY scheduled_for DESC, created_at DESC`;

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

export async function listPayouts(app: AppContext, affiliateId: string): Promise<PayoutSummary[]> {
  const { rows } = await app.database.sql.query<PayoutRow>(PAYOUTS_SQL, [affiliateId]);
  return rows.map((row) => ({
    id: row.id,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    amountCents: row.amount_cents,
    currency: row.currency,
    method: row.method,
    status: row.status,
    scheduledFor: row.scheduled_for,
    paidAt: isoOrNull(row.paid_at_ms),
    ...(row.amount_paid_cents !== null && row.paid_currency !== null
      ? { amountPaidCents: row.amount_paid_cents, paidCurrency: row.paid_currency }
      : {}),
    ...(row.sent_at_ms !== null ? { sentAt: new Date(Number(row.sent_at_ms)).toISOString() } : {}),
  }));
}
