import { EXCHANGE_RATE_DECIMALS, isAcceptableExchangeRate } from '@skanova/shared/callable/payout-functions';

// Amounts in the export files (BRIEF §6): integer cents inside, decimal text at the edge, and the
// USD→EUR conversion of SEPA payouts in exact integer arithmetic (never floating point).

/** 1234 → "12.34" (integer cents, never negative). */
export function decimalAmount(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`not an amount in cents: ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

const RATE_SCALE = 10n ** BigInt(EXCHANGE_RATE_DECIMALS);

/** The rate as stored (numeric(12, 6)): "0.9231" → "0.923100". Throws on a rate the exports refuse. */
export function normaliseExchangeRate(rate: string): string {
  const value = rate.trim();
  if (!isAcceptableExchangeRate(value)) throw new RangeError(`not an acceptable exchange rate: "${rate}"`);
  const [whole = '0', fraction = ''] = value.split('.');
  return `${Number(whole)}.${fraction.padEnd(EXCHANGE_RATE_DECIMALS, '0')}`;
}

/** `cents` × `rate` (a normalised rate), rounded half up to the cent. */
export function convertCents(cents: number, rate: string): number {
  const [whole = '0', fraction = ''] = normaliseExchangeRate(rate).split('.');
  const scaled = BigInt(whole) * RATE_SCALE + BigInt(fraction);
  const product = BigInt(cents) * scaled;
  return Number((product * 2n + RATE_SCALE) / (2n * RATE_SCALE));
}
