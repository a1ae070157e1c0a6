// The shape of a referral code, in a module of its own so that the browser can check a code without
// loading zod (schemas.ts) and without adding it to every page's shell (constants.ts is in it).

/** Referral codes: letters and digits, matched case-insensitively (docs/product/rules-and-constants.md#referral-codes). */
export const REFERRAL_CODE_PATTERN = /^[A-Za-z0-9]{4,32}$/;
