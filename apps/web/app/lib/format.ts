import { formatMoney } from '@skanova/shared/affiliate/money';

// How the signed-in pages (the dashboard, the console) write numbers, money and dates in the page
// language (docs/product/routes-and-screens.md#overview-tab: dollars with two decimals, the conversion rate in % with one
// decimal). Money arrives in integer cents and becomes dollars only here, at the edge. Days are UTC days (docs/product/money.md#amounts-and-periods), so dates are
// formatted in UTC: a payday at 00:00 UTC on the 15th never shows as the 14th in America. Money is
// written as the e-mails write it (packages/shared affiliate/money.ts).

export { formatMoney };

/** Dollars given by the server (e.g. the commission rate 2 or 4) as the same currency text. */
export function formatDollars(dollars: number, lang: string): string {
  return formatMoney(Math.round(dollars * 100), lang);
}

export function formatCount(value: number, lang: string): string {
  return new Intl.NumberFormat(lang, { maximumFractionDigits: 0 }).format(value);
}

/** A percentage (12.5 means 12.5 %) with one decimal: "12.5%" (en), "12,5 %" (fr). */
export function formatPercent(percent: number, lang: string): string {
  return new Intl.NumberFormat(lang, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(
    percent / 100,
  );
}

const DATE_STYLES = {
  /** "3 juin" / "Jun 3": chart axis. */
  short: { day: 'numeric', month: 'short' },
  /** "15 juillet 2025" / "July 15, 2025": paydays and payouts. */
  long: { day: 'numeric', month: 'long', year: 'numeric' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

/** An ISO date or instant ("2025-06-03" or "2025-06-03T00:00:00.000Z") as its UTC day. */
export function formatDay(iso: string, lang: string, style: keyof typeof DATE_STYLES = 'long'): string {
  const date = new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(lang, { ...DATE_STYLES[style], timeZone: 'UTC' }).format(date);
}

const ENGLISH_ORDINAL_SUFFIX: Record<string, string> = { one: 'st', two: 'nd', few: 'rd', other: 'th' };

/** A day of the month as the language writes it in "the 15th of the month": "15th" (en), "15" or "1er" (fr). */
export function ordinalDay(day: number, lang: string): string {
  if (lang === 'fr') return day === 1 ? '1er' : String(day);
  const rule = new Intl.PluralRules('en', { type: 'ordinal' }).select(day);
  return `${day}${ENGLISH_ORDINAL_SUFFIX[rule] ?? 'th'}`;
}
