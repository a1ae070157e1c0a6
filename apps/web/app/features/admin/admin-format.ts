import { useTranslation } from '../../lib/react-i18n';
import { CallableClientError } from '../../lib/callable';

// How the console writes times and explains failures. Times are UTC, as everything the programme
// computes is (docs/product/rules-and-constants.md#security), and say so.

/** "10 Jun 2025, 12:00 UTC" / "10 juin 2025, 12:00 UTC". */
export function formatDateTime(iso: string, lang: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(date)} UTC`;
}

const COMPACT_DAY = { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' } as const;

/** A table's time on one short line: "10/06/2025 23:30 UTC" (fr), "06/10/2025, 23:30 UTC" (en). */
export function formatCompactDateTime(iso: string, lang: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const options = { ...COMPACT_DAY, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } as const;
  return `${new Intl.DateTimeFormat(lang, options).format(date)} UTC`;
}

/** A table's UTC day: "10/06/2025" (fr), "06/10/2025" (en); a YYYY-MM-DD day is that day. */
export function formatCompactDay(iso: string, lang: string): string {
  const date = new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(lang, COMPACT_DAY).format(date);
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * The message of a failed console call: the `admin` translation of its code (the protocol's, or
 * the finer one in `details.code`) when there is one, else the server's own message (operators
 * read it as it is), else a generic one. `t` is bound to the `admin` namespace.
 */
export function adminErrorMessage(error: unknown, t: Translate, exists: (key: string) => boolean): string {
  if (error instanceof CallableClientError) {
    const key = `errors.${error.code}`;
    if (exists(key)) return t(key);
    if (error.message && error.message !== error.code) return error.message;
  }
  return t('errors.generic');
}

/** `adminErrorMessage` with the page's translations. */
export function useAdminErrorMessage(): (error: unknown) => string {
  const { t, i18n } = useTranslation('admin');
  return (error) => adminErrorMessage(error, t, (key) => i18n.exists(`admin:${key}`));
}
