import { type Page, expect } from '@playwright/test';

// Collects what a page reports while it loads and hydrates: CSP violations (the browser's
// `securitypolicyviolation` event, forwarded to the console), console errors, uncaught errors and
// React hydration errors. Attach before the first navigation.

const CSP_PREFIX = '[csp-violation]';

export interface PageHealth {
  cspViolations: string[];
  consoleErrors: string[];
  pageErrors: string[];
  hydrationErrors: string[];
}

/** React's hydration failures: #418 (text), #423 (recoverable), #425 (text content); dev builds say "hydrat…". */
const HYDRATION_PATTERN =
  /hydrat|react\.dev\/errors\/(418|423|425)\b|Minified React error #(418|423|425)\b|did not match/i;

export async function watchPageHealth(page: Page): Promise<PageHealth> {
  const health: PageHealth = { cspViolations: [], consoleErrors: [], pageErrors: [], hydrationErrors: [] };
  await page.addInitScript((prefix: string) => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const where = event.sourceFile ? ` at ${event.sourceFile}:${event.lineNumber}` : '';
      console.error(
        `${prefix} ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'}${where} (${event.sample})`,
      );
    });
  }, CSP_PREFIX);
  page.on('console', (message) => {
    const text = message.text();
    if (text.startsWith(CSP_PREFIX)) {
      health.cspViolations.push(text);
      return;
    }
    if (HYDRATION_PATTERN.test(text)) health.hydrationErrors.push(`${message.type()}: ${text}`);
    if (message.type() === 'error') {
      const url = message.location().url;
      health.consoleErrors.push(url ? `${text} (${url})` : text);
    }
  });
  page.on('pageerror', (error) => {
    const text = `${error.name}: ${error.message}`;
    if (HYDRATION_PATTERN.test(text)) health.hydrationErrors.push(text);
    health.pageErrors.push(text);
  });
  return health;
}

/** Every list empty, each reported by name so a failure says what went wrong. */
export function expectHealthy(health: PageHealth, where: string): void {
  expect.soft(health.cspViolations, `CSP violations on ${where}`).toEqual([]);
  expect.soft(health.hydrationErrors, `hydration errors on ${where}`).toEqual([]);
  expect.soft(health.pageErrors, `uncaught errors on ${where}`).toEqual([]);
  expect.soft(health.consoleErrors, `console errors on ${where}`).toEqual([]);
}

/** Waits until finite CSS animations and transitions are over (axe measures contrast on what it sees). */
export async function waitForAnimations(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
      .every((animation) => animation.playState === 'finished' || animation.playState === 'idle'),
  );
}
