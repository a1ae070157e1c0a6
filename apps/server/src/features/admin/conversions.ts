import type { AdminListConversionsRequest, ConversionStatus } from '@skanova/shared/admin/schemas';
import type { AdminConversion, AdminPage } from '@skanova/shared/admin/responses';
import type { AppContext } from '../../context.ts';
import {
  COMMISSION_WHY_COLUMNS,
  COMMISSION_WHY_JOINS,
  type CommissionWhyRow,
  commissionWhy,
} from '../../domain/reward-rules.ts';
import { Conditions, isoTime, pageOf, paging } from './paging.ts';

// Conversions in the operator console (docs/product/routes-and-screens.md#operator-console): every affiliate's, filtered by status,
// affiliate, code and UTC days, newest first, each with why it is its amount
// (docs/product/money.md#partner-groups-and-reward-rules).

const DAY_MS = 24 * 60 * 60 * 1000;

interface ConversionRow extends CommissionWhyRow {
  id: string;
  affiliate_id: string;
  affiliate_name: string | null;
  affiliate_email: string | null;
  code: string | null;
  store: string | null;
  product_id: string | null;
  occurred_at: Date | string;
  commission_cents: number;
  rate_tier: AdminConversion['rateTier'];
  status: ConversionStatus;
  approved_at: Date | string | null;
  reversed_at: Date | string | null;
  reversal_reason: string | null;
  refunded_at: Date | string | null;
  payout_id: string | null;
}

const FROM = `
FROM conversions c
JOIN affiliates a ON a.id = c.affiliate_id
LEFT JOIN auth_users u ON u.id = a.user_id
LEFT JOIN referral_codes k ON k.id = c.referral_code_id`;

/** The list's rows also say why each commission is its amount (its rule and group, its inputs). */
const FROM_WITH_WHY = `${FROM}
${COMMISSION_WHY_JOINS}`;

/** The start of a UTC day, as an instant (a bare date would be read in the session's time zone). */
const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);

export async function listConversions(
  app: AppContext,
  input: AdminListConversionsRequest,
): Promise<AdminPage<AdminConversion>> {
  const where = new Conditions();
  if (input.status) where.add('c.status = $?', input.status);
  if (input.affiliateId) where.add('c.affiliate_id = $?', input.affiliateId);
  if (input.code) where.add('k.code = upper($?)', input.code);
  if (input.from) where.add('c.occurred_at >= $?', dayStart(input.from).toISOString());
  if (input.to) where.add('c.occurred_at < $?', new Date(dayStart(input.to).getTime() + DAY_MS).toISOString());
  return pageOf<ConversionRow, AdminConversion>(
    app.database.sql,
    {
      select: `SELECT c.id::text AS id, c.affiliate_id, nullif(concat_ws(' ', a.first_name, a.last_name), '') AS affiliate_name,
                      u.email AS affiliate_email, k.code, c.store, c.product_id, c.occurred_at, c.commission_cents, c.rate_tier,
                      c.status, c.approved_at, c.reversed_at, c.reversal_reason, c.refunded_at, c.payout_id::text AS payout_id,
                      ${COMMISSION_WHY_COLUMNS}
               ${FROM_WITH_WHY} WHERE ${where}
               ORDER BY c.occurred_at DESC, c.id DESC LIMIT $${where.next} OFFSET $${where.next + 1}`,
      count: `SELECT count(*)::int AS total ${FROM} WHERE ${where}`,
      params: where.params,
    },
    paging(input),
    (row) => ({
      id: row.id,
      affiliateId: row.affiliate_id,
      affiliateName: row.affiliate_name,
      affiliateEmail: row.affiliate_email,
      code: row.code,
      store: row.store,
      productId: row.product_id,
      occurredAt: isoTime(row.occurred_at),
      commissionCents: row.commission_cents,
      rateTier: row.rate_tier,
      why: commissionWhy(row, 'operator'),
      status: row.status,
      approvedAt: isoTime(row.approved_at),
      reversedAt: isoTime(row.reversed_at),
      reversalReason: row.reversal_reason,
      refundedAt: isoTime(row.refunded_at),
      payoutId: row.payout_id,
    }),
  );
}
