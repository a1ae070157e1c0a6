// Business values of the affiliate programme (docs/product/rules-and-constants.md#validation). One source for site texts, server and tests.

/** Commission per first paid subscription, before the premium tier (docs/product/money.md#premium-tier). */
export const STANDARD_COMMISSION_CENTS = 200;
/** Commission once the affiliate already has PREMIUM_THRESHOLD qualified conversions (docs/product/money.md#premium-tier). */
export const PREMIUM_COMMISSION_CENTS = 400;
/** Qualified conversions needed for the premium rate; also the progress bar's target. */
export const PREMIUM_THRESHOLD = 100;
/** Unpaid approved balance needed before a payout is made (docs/product/money.md#payment-timing). */
export const MINIMUM_PAYOUT_CENTS = 2000;
/** Payouts are made on this day of the month for earnings approved the month before (docs/product/money.md#payment-timing). */
export const PAYOUT_DAY_OF_MONTH = 15;
/** Days a commission stays pending: the stores' refund window (docs/product/money.md#commission-hold). */
export const COMMISSION_HOLD_DAYS = 30;
/** Maximum referral codes one affiliate may hold (docs/product/rules-and-constants.md#validation). */
export const MAX_REFERRAL_CODES = 10;
/** Password minimum length for affiliate accounts (docs/product/money.md#payment-timing). */
export const PASSWORD_MIN_LENGTH = 8;
/** Minimum age to use the app and to be an affiliate (docs/product/rules-and-constants.md#validation). */
export const MIN_APP_AGE = 13;
export const MIN_AFFILIATE_AGE = 18;
/** Commission currency: commissions are calculated in USD (docs/product/money.md#commission-rates). */
export const COMMISSION_CURRENCY = 'USD';

/** Formats integer cents as dollars with two decimals, e.g. 200 → "2.00". */
export function centsToDollars(cents: number): string {
  return (cents / 100).toFixed(2);
}
