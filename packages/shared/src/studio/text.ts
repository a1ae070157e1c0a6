// The consultation's answers and the routine's reasons are composed here, in shared code, as i18n keys
// (namespace `studio`) with the values to put in them; the page translates them. So the words live in
// both languages' files and the numbers come from the visitor's own scans, and tests can read both.

/** A value put into a text: a number as is, or something the page formats in its language. */
export type TextValue =
  | number
  /** A number with up to one decimal (a noise floor, a change): "4.6" / "4,6". */
  | { readonly decimal: number; readonly signed?: boolean }
  /** Another key's text (a zone's or a metric's name, a choice's label). */
  | { readonly key: string }
  /** A moment, ISO 8601 UTC, shown as a date in the visitor's language and time zone. */
  | { readonly date: string }
  /** Several values joined as a list: "nose, chin and forehead". */
  | { readonly list: readonly TextValue[] };

export interface TextLine {
  /** An i18n key of the `studio` namespace. */
  readonly key: string;
  /** `count` picks the plural form, as i18next does. */
  readonly values?: Readonly<Record<string, TextValue>>;
}

export function line(key: string, values?: Record<string, TextValue>): TextLine {
  return values ? { key, values } : { key };
}

export const keyOf = (key: string): TextValue => ({ key });
export const dateOf = (date: string): TextValue => ({ date });
export const decimalOf = (value: number, signed = false): TextValue =>
  signed ? { decimal: Math.round(value * 10) / 10, signed } : { decimal: Math.round(value * 10) / 10 };

/** i18next's `t` (namespace `studio`), or a test's equivalent. */
export type Translate = (key: string, values?: Record<string, unknown>) => string;

const formats = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.ListFormat>();
function format<F extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.ListFormat>(id: string, make: () => F): F {
  let made = formats.get(id) as F | undefined;
  if (!made) formats.set(id, (made = make()));
  return made;
}

/** A value as text in `lang`: numbers and dates in its conventions, keys through `t`. */
export function formatValue(value: TextValue, t: Translate, lang: string): string {
  if (typeof value === 'number')
    return format(`${lang}/integer`, () => new Intl.NumberFormat(lang, { maximumFractionDigits: 0 })).format(value);
  if ('decimal' in value)
    return format(
      `${lang}/decimal/${value.signed === true}`,
      () =>
        new Intl.NumberFormat(lang, { maximumFractionDigits: 1, signDisplay: value.signed ? 'exceptZero' : 'auto' }),
    ).format(value.decimal);
  if ('key' in value) return t(value.key);
  if ('date' in value)
    return format(`${lang}/date`, () => new Intl.DateTimeFormat(lang, { dateStyle: 'long' })).format(
      new Date(value.date),
    );
  return format(`${lang}/list`, () => new Intl.ListFormat(lang, { type: 'conjunction' })).format(
    value.list.map((item) => formatValue(item, t, lang)),
  );
}

/** A line as text: its key through `t` with its values formatted (`count` stays a number, for plurals). */
export function renderLine(text: TextLine, t: Translate, lang: string): string {
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(text.values ?? {})) values[name] = formatValue(value, t, lang);
  const count = text.values?.count;
  if (typeof count === 'number') values.count = count;
  return t(text.key, values);
}
