import type { PayoutStatus } from '@skanova/shared/affiliate/stats';
import type { AdminPayout } from '@skanova/shared/payouts/functions';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { affiliates, payouts } from '../../db/schema/affiliates.ts';
import { authUsers } from '../../db/schema/auth.ts';
import { payoutRecordColumns, toPayoutRecord } from '../../domain/payout-record.ts';
import { transferReference } from './transfer-reference.ts';

// The operator's payout list (docs/product/money.md#payouts): by payday and status, newest payday first, with who is
// paid (name and sign-in e-mail, gone once the account is deleted) but never the account details.

function nameOf(firstName: string | null, lastName: string | null): string | null {
  const name = [firstName, lastName].filter((part) => part?.trim()).join(' ');
  return name === '' ? null : name;
}

export async function listAdminPayouts(
  app: AppContext,
  filters: { status?: PayoutStatus | undefined; payday?: string | undefined },
): Promise<AdminPayout[]> {
  const rows = await app.database.db
    .select({
      ...payoutRecordColumns,
      affiliateId: payouts.affiliateId,
      firstName: affiliates.firstName,
      lastName: affiliates.lastName,
      email: authUsers.email,
    })
    .from(payouts)
    .innerJoin(affiliates, eq(affiliates.id, payouts.affiliateId))
    .leftJoin(authUsers, eq(authUsers.id, affiliates.userId))
    .where(
      and(
        filters.status ? eq(payouts.status, filters.status) : undefined,
        filters.payday ? eq(payouts.scheduledFor, filters.payday) : undefined,
      ),
    )
    .orderBy(
      desc(payouts.scheduledFor),
      sql`${affiliates.lastName} NULLS LAST`,
      sql`${affiliates.firstName} NULLS LAST`,
      asc(payouts.id),
    );
  return rows.map(({ affiliateId, firstName, lastName, email, ...row }) => ({
    ...toPayoutRecord(row),
    affiliateId,
    affiliateName: nameOf(firstName, lastName),
    affiliateEmail: email,
    transferReference: transferReference(row.id),
  }));
}
