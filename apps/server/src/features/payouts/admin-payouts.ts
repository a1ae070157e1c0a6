import type { PaymentMethodType } from '@skanova/shared/affiliate/payment-method';
import type { PayoutStatus } from '@skanova/shared/affiliate/stats';
import type { AdminPayout } from '@skanova/shared/payouts/functions';
import type { AppContext } from '../../context.ts';
import { transferReference } from './transfer-reference.ts';

// The operator's payout list (BRIEF §5.10): by payday and status, newest payday first, with who is
// paid (name and sign-in e-mail, gone once the account is deleted) but never the account details.

interface PayoutRow {
  id: string;
  affiliate_id: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  period_start: string;
  period_end: string;
  amount_cents: number;
  currency: string;
  method: PaymentMethodType;
  status: PayoutStatus;
  scheduled_for: string;
  exchange_rate: string | null;
  amount_paid_cents: number | null;
  paid_currency: string | null;
  reference: string | null;
  failure_reason: string | null;
  sent_at_ms: number | null;
  paid_at_ms: number | null;
  failed_at_ms: number | null;
  export_id: string | null;
}

const ms = (column: string) => `(extract(epoch FROM p.${column}) * 1000)::float8 AS ${column}_ms`;

const LIST_SQL = `
SELECT p.id::text AS id, p.affiliate_id, a.first_name, a.last_name, u.email,
       p.period_start::text AS period_start, p.period_end::text AS period_end, p.amount_cents, p.currency, p.method, p.status,
       p.scheduled_for::text AS scheduled_for, p.exchange_rate::text AS exchange_rate, p.amount_paid_cents, p.paid_currency,
       p.reference, p.failure_reason, ${ms('sent_at')}, ${ms('paid_at')}, ${ms('failed_at')}, p.export_id::text AS export_id
FROM payouts p
JOIN affiliates a ON a.id = p.affiliate_id
LEFT JOIN auth_users u ON u.id = a.user_id
WHERE ($1::text IS NULL OR p.status = $1) AND ($2::date IS NULL OR p.scheduled_for = $2::date)
ORDER BY p.scheduled_for DESC, a.last_name NULLS LAST, a.first_name NULLS LAST, p.id`;

const isoOrNull = (value: number | null) => (value === null ? null : new Date(Number(value)).toISOString());

function nameOf(row: PayoutRow): string | null {
  const name = [row.first_name, row.last_name].filter((part) => part?.trim()).join(' ');
  return name === '' ? null : name;
}

export async function listAdminPayouts(
  app: AppContext,
  filters: { status?: PayoutStatus | undefined; payday?: string | undefined },
): Promise<AdminPayout[]> {
  const { rows } = await app.database.sql.query<PayoutRow>(LIST_SQL, [filters.status ?? null, filters.payday ?? null]);
  return rows.map((row) => ({
    id: row.id,
    affiliateId: row.affiliate_id,
    affiliateName: nameOf(row),
    affiliateEmail: row.email,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    amountCents: row.amount_cents,
    currency: row.currency,
    method: row.method,
    status: row.status,
    scheduledFor: row.scheduled_for,
    exchangeRate: row.exchange_rate,
    amountPaidCents: row.amount_paid_cents,
    paidCurrency: row.paid_currency,
    reference: row.reference,
    failureReason: row.failure_reason,
    sentAt: isoOrNull(row.sent_at_ms),
    paidAt: isoOrNull(row.paid_at_ms),
    failedAt: isoOrNull(row.failed_at_ms),
    transferReference: transferReference(row.id),
    exportId: row.export_id,
  }));
}
