// What the operators' forms type and what the wire carries (docs/product/money.md#operators-groups-rules-and-campaigns):
// an operator types dollars and percentages, with at most two decimals; the functions take integer
// cents and basis points. These convert both ways without floating-point arithmetic, so "0.29" is 29
// cents, never 28.999…; text that is no such number is null, and the form says so next to the field.

/** Digits, then at most two decimals after a point or a comma (the French decimal sign). */
const DECIMAL = /^(\d{1,9})(?:[.,](\d{1,2}))?$/;

/** Hundredths of `text` ("2.5" → 250), or null when it is not a number 0 or more with at most two decimals. */
function hundredths(text: string): number | null {
  const match = DECIMAL.exec(text.trim());
  if (!match) return null;
  const [, whole, fraction = ''] = match;
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** Dollars as typed ("2", "2.50", "2,5") → cents; null for anything else (negative, three decimals, words). */
export function centsFromDollars(text: string): number | null {
  return hundredths(text);
}

/** A percentage as typed ("30", "12.5", "12,75") → basis points; null for anything else. */
export function basisPointsFromPercent(text: string): number | null {
  return hundredths(text);
}

/** Hundredths as the forms show them back: 250 → "2.50", 200 → "2", 1250 → "12.50". */
function decimalText(value: number): string {
  const whole = Math.trunc(value / 100);
  const fraction = value % 100;
  return fraction === 0 ? String(whole) : `${whole}.${String(fraction).padStart(2, '0')}`;
}

/** Cents as a form's starting value. */
export function dollarsText(cents: number): string {
  return decimalText(cents);
}

/** Basis points as a form's starting value. */
export function percentText(basisPoints: number): string {
  return decimalText(basisPoints);
}
