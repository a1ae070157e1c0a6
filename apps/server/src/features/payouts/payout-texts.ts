import { createRequire } from 'node:module';
import { type Language, isLanguage } from '@skanova/shared/site/constants';

// What the affiliate reads with the money: the PayPal note and the SEPA remittance text, in the
// affiliate's language, from the shared `payout-transfers` translations ({{brand}} is configuration).

const require = createRequire(import.meta.url);
type Texts = Record<'paypalNote' | 'sepaRemittance', string>;
const TEXTS: Record<Language, Texts> = {
  fr: require('@skanova/shared/i18n/fr/payout-transfers.json') as Texts,
  en: require('@skanova/shared/i18n/en/payout-transfers.json') as Texts,
};

export interface TransferTextInput {
  brand: string;
  /** The affiliate's language as stored (anything else reads as French, the default). */
  language: string;
  /** The payout's period start, YYYY-MM-DD: the month it pays. */
  periodStart: string;
  /** The payout's transfer reference. */
  reference: string;
}

/** "May 2025" / "mai 2025". */
function monthName(periodStart: string, lang: Language): string {
  return new Intl.DateTimeFormat(lang, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${periodStart}T00:00:00Z`),
  );
}

export function transferText(key: keyof Texts, input: TransferTextInput): string {
  const lang: Language = isLanguage(input.language) ? input.language : 'fr';
  const values: Record<string, string> = {
    brand: input.brand,
    period: monthName(input.periodStart, lang),
    reference: input.reference,
  };
  return TEXTS[lang][key].replace(/\{\{(\w+)\}\}/g, (match, name: string) => values[name] ?? match);
}
