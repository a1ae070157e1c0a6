import {
  COMMISSION_CURRENCY,
  COMMISSION_HOLD_DAYS,
  MAX_REFERRAL_CODES,
  MIN_AFFILIATE_AGE,
  MIN_APP_AGE,
  MINIMUM_PAYOUT_CENTS,
  PAYOUT_DAY_OF_MONTH,
  PREMIUM_COMMISSION_CENTS,
  PREMIUM_THRESHOLD,
  STANDARD_COMMISSION_CENTS,
} from '@skanova/shared/affiliate/programme';

// The programme's rules as the affiliate pages print them (docs/product/money.md#payment-timing): every figure comes from
// the shared constants, interpolated into the texts ({{standard}}, {{payoutDay}} …), never typed there.
// The payment timing is the one rule of docs/product/money.md#payment-timing (PAYMENT_TIMING in payouts/payout-schedule.ts is
// made of the same two constants, read here directly: they are already in every page's first load).
// Formatting is done by hand rather than with Intl: build and browser must produce the same text, or
// hydration fails, and ICU data differs between Node and browsers.

const NBSP = '\u00a0';

/** Whole dollars without decimals ("$2"), others with two ("$2.50"); French puts the sign after. */
export function formatUsd(cents: number, lang: string): string {
  const amount = cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);
  return lang === 'fr' ? `${amount.replace('.', ',')}${NBSP}$${NBSP}US` : `$${amount}`;
}

/** "15th" / "15" (French says "le 15", and "le 1er" for the first). */
export function dayOfMonth(day: number, lang: string): string {
  if (lang === 'fr') return day === 1 ? '1er' : String(day);
  const teens = day % 100 >= 11 && day % 100 <= 13;
  const suffix = teens ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[day % 10] ?? 'th');
  return `${day}${suffix}`;
}

/** Interpolation values of the programme's texts in one language. */
export function programmeValues(lang: string) {
  return {
    standard: formatUsd(STANDARD_COMMISSION_CENTS, lang),
    premium: formatUsd(PREMIUM_COMMISSION_CENTS, lang),
    threshold: PREMIUM_THRESHOLD,
    minimum: formatUsd(MINIMUM_PAYOUT_CENTS, lang),
    payoutDay: dayOfMonth(PAYOUT_DAY_OF_MONTH, lang),
    holdDays: COMMISSION_HOLD_DAYS,
    maxCodes: MAX_REFERRAL_CODES,
    minAge: MIN_AFFILIATE_AGE,
    minAppAge: MIN_APP_AGE,
    currency: COMMISSION_CURRENCY,
  };
}
