import type { TransactionQuery } from '../db/transaction.ts';

// Whether an affiliate's links and codes still earn (docs/product/rules-and-constants.md#applications-and-disabled-accounts, docs/product/money.md#disabled-and-deleted-accounts): an active profile, not deleted,
// whose sign-in account is not disabled (banned; a ban with an expiry ends by itself). Attribution
// and new conversions both use this one definition.

/**
 * SQL joins from `r.affiliate_id` (or any column passed as `affiliateColumn`) to the affiliate `a` and
 * its sign-in account `u`; pair with `mayEarnSql`.
 */
export function earningAffiliateJoins(affiliateColumn: string): string {
  return `JOIN affiliates a ON a.id = ${affiliateColumn} LEFT JOIN auth_users u ON u.id = a.user_id`;
}

/** SQL boolean over `a` and `u` (see earningAffiliateJoins); `nowParam` is the current time's placeholder. */
export function mayEarnSql(nowParam: string): string {
  return `(a.status = 'active' AND a.deleted_at IS NULL
           AND NOT coalesce(u.banned AND (u.ban_expires IS NULL OR u.ban_expires > ${nowParam}::timestamptz), false))`;
}

export interface LockedAffiliate {
  id: string;
  mayEarn: boolean;
}

/**
 * Locks the affiliate's row until the transaction ends (conversions of one affiliate are recorded one
 * at a time, so the premium count is exact) and answers whether it may earn now.
 */
export async function lockAffiliate(
  tx: TransactionQuery,
  affiliateId: string,
  now: Date,
): Promise<LockedAffiliate | null> {
  const { rows } = await tx.query<LockedAffiliate>(
    `SELECT a.id, ${mayEarnSql('$2')} AS "mayEarn"
     FROM affiliates a LEFT JOIN auth_users u ON u.id = a.user_id
     WHERE a.id = $1
     FOR UPDATE OF a`,
    [affiliateId, now.toISOString()],
  );
  return rows[0] ?? null;
}
