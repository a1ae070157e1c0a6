import { COMMISSION_CURRENCY } from './programme.ts';

// How the product writes an amount of money for a reader, the same on the signed-in pages and in
// the e-mails: integer cents become the currency's units only here, at the edge.

/** Integer cents as currency with two decimals: 1250 → "$12.50" (en), "12,50 $US" (fr). */
export function formatMoney(cents: number, lang: string, currency: string = COMMISSION_CURRENCY): string {
  return new Intl.NumberFormat(lang, {
    style: 'currency',
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(cents / 100);
}
