import AxeBuilder from '@axe-core/playwright';
import { type Page, expect } from '@playwright/test';
import { waitForAnimations } from './page-health';

/** The WCAG 2.1 A and AA rules the pages are held to. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** No axe violation on the page once its animations are over; `where` names the state in a failure. */
export async function expectNoAxeViolations(page: Page, where: string): Promise<void> {
  await waitForAnimations(page);
  const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  expect(
    results.violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    ),
    where,
  ).toEqual([]);
}
