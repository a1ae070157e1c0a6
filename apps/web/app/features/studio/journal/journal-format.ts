import type { MetricId } from '@skanova/skin/contract';
import type { ConditionDifference } from '@skanova/skin/conditions';
import { STUDIO_COMPARE_PAGE } from '@skanova/shared/studio/constants';
import type { Place } from '@skanova/skin/trend';
import type { CalendarDate } from './journal-model';

// How the journal writes its figures and days in the page's language. Scores are whole numbers, as
// on the result page; changes and noise floors keep one decimal, so that a change of 0.9 under a
// floor of 1 never reads as "+1, stable".

type Translate = (key: string, options?: Record<string, unknown>) => string;

// Formatters are costly to build and a long journal writes hundreds of figures and dates: one of each
// kind per language.
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

export function numberFormat(lang: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${lang} ${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(lang, options)));
  return format;
}

export function dateFormat(lang: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${lang} ${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat(lang, options)));
  return format;
}

/** A scan's moment, as the rest of the app writes it (format-date.ts): "25 novembre 2026 à 10:42". */
export function formatScanDate(iso: string, lang: string): string {
  return dateFormat(lang, { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso));
}

export function formatScore(value: number, lang: string): string {
  return numberFormat(lang, { maximumFractionDigits: 0 }).format(Math.round(value));
}

/** "+1.5", "−3.0", "0.0": always signed (a true minus sign), one decimal. */
export function formatDelta(delta: number, lang: string): string {
  return numberFormat(lang, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
    signDisplay: 'exceptZero',
  })
    .format(delta)
    .replace('-', '\u2212');
}

export function formatFloor(floor: number, lang: string): string {
  return numberFormat(lang, { maximumFractionDigits: 1 }).format(floor);
}

/** A day of the calendar, e.g. "jeudi 3 décembre" / "Thursday 3 December" (the year when it is not this one). */
export function formatCalendarDate(date: CalendarDate, lang: string, withYear = false): string {
  return dateFormat(lang, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    ...(withYear ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(date.year, date.month - 1, date.day)));
}

/** A weekday's name in the plural sense of "every …" is left to the sentence: "jeudi" / "Thursday". */
export function formatWeekday(date: CalendarDate, lang: string): string {
  return dateFormat(lang, { weekday: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(date.year, date.month - 1, date.day)),
  );
}

/** A scan's day, short: "25 nov. 2026" / "25 Nov 2026". */
export function formatShortDay(iso: string, lang: string): string {
  return dateFormat(lang, { day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(iso));
}

/** A column's day: "11 nov." / "11 Nov", with the year when asked. */
export function formatDayMonth(iso: string, lang: string, withYear: boolean): string {
  return dateFormat(lang, {
    day: 'numeric',
    month: 'short',
    ...(withYear ? { year: 'numeric' } : {}),
  }).format(new Date(iso));
}

/** A scan in a list of choices, short: "11 nov. 2026, 08:41" / "11 Nov 2026, 08:41". */
export function formatScanMoment(iso: string, lang: string): string {
  return dateFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** The name of a place: the whole face or a zone. */
export function placeTitle(t: Translate, place: Place): string {
  return place === 'overall' ? t('journal.wholeFace') : t(`zoneTitles.${place}`);
}

export function metricTitle(t: Translate, metric: MetricId): string {
  return t(`metrics.${metric}.title`);
}

/** The comparison of two scans. */
export function compareLink(a: string, b: string): string {
  return `${STUDIO_COMPARE_PAGE}?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;
}

/** Why two scans are not comparable, as a list in the page's language: "the light differs and …". */
export function reasonsText(
  t: Translate,
  lang: string,
  reasons: { otherAnalysis: boolean; differences: readonly ConditionDifference[] },
): string {
  const parts = reasons.otherAnalysis
    ? [t('journal.reasons.version')]
    : reasons.differences.map((difference) => t(`journal.reasons.${difference}`));
  return new Intl.ListFormat(lang, { type: 'conjunction' }).format(parts);
}

/** The visitor's time zone, as the browser knows it. */
export function visitorTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
