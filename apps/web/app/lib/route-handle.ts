/**
 * Route modules declare the translation namespaces they use: `export const handle = { i18n: ['support'] }`.
 * root.tsx embeds those namespaces' strings in the page. Here rather than in root.tsx, so that routes and
 * layouts name it without importing the app's entry point (ADR 020).
 */
export interface RouteHandle {
  i18n?: string[];
}
