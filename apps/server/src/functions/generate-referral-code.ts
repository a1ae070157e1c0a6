import { generateReferralCodeRequestSchema } from '@skanova/shared/affiliate/schemas';
import { generateReferralCode as generateCode } from '../features/affiliate/referral-codes.ts';
import { defineCallable } from '../http/callable.ts';

/**
 * A new referral code for the signed-in affiliate (docs/product/calls-and-data.md#server-functions generateReferralCode, docs/product/rules-and-constants.md#referral-codes). An empty
 * description is stored as null: the dashboard shows its translated default text. The eleventh code
 * answers `failed-precondition` (details.code `max-codes-reached`), even under parallel calls.
 */
export const generateReferralCode = defineCallable({
  name: 'generateReferralCode',
  access: 'affiliate',
  input: generateReferralCodeRequestSchema,
  async handler(input, { app, caller }) {
    const description = input?.description?.trim() || null;
    const created = await generateCode(app, caller.affiliateId, description);
    return { code: created.code, description: created.description };
  },
});
