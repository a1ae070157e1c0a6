import { randomInt } from 'node:crypto';
import { REFERRAL_CODE_ALPHABET, REFERRAL_CODE_LENGTH } from '@skanova/shared/affiliate/constants';
import { MAX_REFERRAL_CODES } from '@skanova/shared/affiliate/programme';
import { and, count, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { affiliates } from '../../db/schema/affiliates.ts';
import { referralCodes } from '../../db/schema/landing.ts';
import { CallableError } from '../../lib/callable-error.ts';
import { inTransaction } from '../../db/transaction.ts';

// New referral codes (docs/product/rules-and-constants.md#referral-codes): 8 characters from the unambiguous alphabet, drawn with the
// cryptographic generator so that nobody can guess another affiliate's next code. At most
// MAX_REFERRAL_CODES per affiliate: the affiliate row is locked before counting, so parallel calls
// queue behind one another and cannot both see "9 codes" and both insert.

/**
 * Draws before giving up. 31^8 ≈ 8.5 × 10^11 codes: even with millions taken, a collision is a
 * one-in-100,000 event, and five in a row means something else is wrong.
 */
const MAX_DRAWS = 5;

export function randomReferralCode(): string {
  let code = '';
  for (let i = 0; i < REFERRAL_CODE_LENGTH; i++)
    code += REFERRAL_CODE_ALPHABET[randomInt(REFERRAL_CODE_ALPHABET.length)];
  return code;
}

export interface NewReferralCode {
  code: string;
  description: string | null;
  createdAt: string;
}

/** Creates a code for an active affiliate; `failed-precondition` when inactive or at the limit. */
export async function generateReferralCode(
  app: AppContext,
  affiliateId: string,
  description: string | null,
): Promise<NewReferralCode> {
  const now = app.now();
  return inTransaction(app, async (tx) => {
    const owner = await tx.db
      .select({ status: affiliates.status })
      .from(affiliates)
      .where(and(eq(affiliates.id, affiliateId), isNull(affiliates.deletedAt)))
      .for('update');
    if (owner[0]?.status !== 'active') {
      throw new CallableError('failed-precondition', 'Only active affiliates can create referral codes.', {
        code: 'affiliate-not-active',
      });
    }
    const counted = await tx.db
      .select({ n: count() })
      .from(referralCodes)
      .where(eq(referralCodes.affiliateId, affiliateId));
    if ((counted[0]?.n ?? 0) >= MAX_REFERRAL_CODES) {
      throw new CallableError(
        'failed-precondition',
        `You already have the maximum of ${MAX_REFERRAL_CODES} referral codes.`,
        {
          code: 'max-codes-reached',
          max: MAX_REFERRAL_CODES,
        },
      );
    }
    for (let draw = 0; draw < MAX_DRAWS; draw++) {
      // ON CONFLICT instead of catching the unique violation: an error would abort the transaction.
      const [inserted] = await tx.db
        .insert(referralCodes)
        .values({ code: randomReferralCode(), affiliateId, description, createdAt: now })
        .onConflictDoNothing({ target: referralCodes.code })
        .returning({ code: referralCodes.code });
      if (inserted) return { code: inserted.code, description, createdAt: now.toISOString() };
    }
    throw new CallableError('aborted', 'Could not draw a free referral code. Please try again.', {
      code: 'code-collision',
    });
  });
}
