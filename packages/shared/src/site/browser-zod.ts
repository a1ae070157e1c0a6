import { config } from 'zod/mini';

/**
 * In the browser, zod must not probe `new Function` (its JIT): the site's CSP forbids eval, and the
 * probe would be reported as a violation. Call once before any schema parses in the browser.
 */
export function configureZodForBrowser(): void {
  config({ jitless: true });
}
