/** A scan's moment in the visitor's own time zone and language: "25 novembre 2026, 10:42" / "November 25, 2026, 10:42 AM". */
export function formatScanDate(iso: string, lang: string): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso));
}
