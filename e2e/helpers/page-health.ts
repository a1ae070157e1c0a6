import { type Page, expect } from '@playwright/test';

// Collects what a page reports while it loads and hydrates: CSP violations (the browser's
// `securitypolicyviolation` event, forwarded to the console), console errors, uncaught errors and
// React hydration errors. Attach before the first navigation. `repaintedOnLoad` then names the
// prerendered elements React painted afresh instead of hydrating in place.

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
  await page.addInitScript(() => {
    // The prerendered page's landmarks, headings and fields, once the parser has read it all.
    const holder = window as unknown as { __prerendered: Element[] };
    holder.__prerendered = [];
    document.addEventListener('readystatechange', () => {
      if (document.readyState === 'interactive')
        holder.__prerendered = [
          ...document.querySelectorAll('header, footer, main, h1, h2, form, input, textarea, select'),
        ];
    });
  });
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

/**
 * The prerendered elements no longer in the page: hydrated in place, React keeps every one of them;
 * a part it painted afresh (an urgent update reached it before its chunk arrived) blinks, loses focus
 * and what was typed into it. Call once the page has hydrated.
 */
export async function repaintedOnLoad(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    (window as unknown as { __prerendered: Element[] }).__prerendered
      .filter((element) => !element.isConnected)
      .map(
        (element) =>
          `${element.localName}${element.id ? `#${element.id}` : ''}${element.className ? `.${String(element.className).split(' ')[0]}` : ''}`,
      ),
  );
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
