import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../site/constants.ts';

export interface LanguageSignals {
  /** Value of the `?lang=` query parameter, if any. */
  query?: string | undefined;
  /** Value of the `lang` cookie set by the header toggle, if any. */
  cookie?: string | undefined;
  /** Raw Accept-Language header, if any. */
  acceptLanguage?: string | undefined;
}

/**
 * Chooses the page language (docs/product/rules-and-constants.md#languages): `?lang=` → the visitor's explicit choice (cookie)
 * → the browser's languages by quality → French.
 */
export function negotiateLanguage(signals: LanguageSignals): Language {
  const query = signals.query?.toLowerCase();
  if (isLanguage(query)) return query;
  const cookie = signals.cookie?.toLowerCase();
  if (isLanguage(cookie)) return cookie;
  return pickFromAcceptLanguage(signals.acceptLanguage) ?? DEFAULT_LANGUAGE;
}

/** Parses an Accept-Language header and returns the best supported language, if any. */
export function pickFromAcceptLanguage(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .slice(0, 32) // a header longer than this is not a real browser's
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const q = qParam ? Number(qParam.slice(2)) : 1;
      return { primary: tag.trim().toLowerCase().split('-')[0] ?? '', q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked.map((entry) => entry.primary).find(isLanguage);
}
