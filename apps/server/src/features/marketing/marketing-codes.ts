import type { AppContext } from '../../context.ts';

// Which referral codes the marketing files may be made for. Codes are stored upper-case and
// matched case-insensitively (BRIEF §6); anything that cannot be a code is refused before the query.

const CODE_SHAPE = /^[A-Za-z0-9]{1,32}$/;

/** The stored form of a code from a URL, or null when it cannot be one. */
export function normaliseCode(raw: string): string | null {
  return CODE_SHAPE.test(raw) ? raw.toUpperCase() : null;
}

/** A code of an affiliate whose account still exists (banners are public). */
export async function isLiveReferralCode(ctx: AppContext, code: string): Promise<boolean> {
  const { rows } = await ctx.database.sql.query<{ code: string }>(
    `SELECT rc.code FROM referral_codes rc JOIN affiliates a ON a.id = rc.affiliate_id
     WHERE rc.code = $1 AND a.deleted_at IS NULL`,
    [code],
  );
  return rows.length > 0;
}

/** Whether the code belongs to this affiliate (print documents are for their owner only). */
export async function ownsReferralCode(ctx: AppContext, affiliateId: string, code: string): Promise<boolean> {
  const { rows } = await ctx.database.sql.query<{ code: string }>(
    'SELECT code FROM referral_codes WHERE code = $1 AND affiliate_id = $2',
    [code, affiliateId],
  );
  return rows.length > 0;
}
