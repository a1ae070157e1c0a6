import { and, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { affiliates } from '../../db/schema/affiliates.ts';
import { referralCodes } from '../../db/schema/landing.ts';

// Which referral codes the marketing files may be made for. Codes are stored upper-case and
// matched case-insensitively (docs/product/rules-and-constants.md#referral-codes); anything that cannot be a code is refused before the query.

const CODE_SHAPE = /^[A-Za-z0-9]{1,32}$/;

/** The stored form of a code from a URL, or null when it cannot be one. */
export function normaliseCode(raw: string): string | null {
  return CODE_SHAPE.test(raw) ? raw.toUpperCase() : null;
}

/** A code of an affiliate whose account still exists (banners are public). */
export async function isLiveReferralCode(ctx: AppContext, code: string): Promise<boolean> {
  const rows = await ctx.database.db
    .select({ code: referralCodes.code })
    .from(referralCodes)
    .innerJoin(affiliates, eq(affiliates.id, referralCodes.affiliateId))
    .where(and(eq(referralCodes.code, code), isNull(affiliates.deletedAt)));
  return rows.length > 0;
}

/** Whether the code belongs to this affiliate (print documents are for their owner only). */
export async function ownsReferralCode(ctx: AppContext, affiliateId: string, code: string): Promise<boolean> {
  const rows = await ctx.database.db
    .select({ code: referralCodes.code })
    .from(referralCodes)
    .where(and(eq(referralCodes.code, code), eq(referralCodes.affiliateId, affiliateId)));
  return rows.length > 0;
}
