import { type Locator, type Page, expect, test } from '@playwright/test';
import { BASE_URL } from '../playwright.config';
import { expectNoAxeViolations } from './helpers/axe';
import { BUSY, LONG_DESCRIPTION, openBusyDashboard } from './helpers/busy-dashboard';
import { type Lang, strings } from './helpers/i18n';
import { expectHealthy, waitForAnimations, watchPageHealth } from './helpers/page-health';

// The affiliate dashboard on a 375 px phone (docs/product/routes-and-screens.md#dashboard), in both languages, with the figures
// of a busy affiliate: every tab in view, the referral codes' figures and copy button without
// scrolling sideways, nothing wider than the screen, amounts on one line, chart dates apart.

const WIDTH = 375;
const LOCALES: Record<Lang, string> = { fr: 'fr-FR', en: 'en-US' };
const TABS = ['overview', 'links', 'payments', 'settings'] as const;

/** Intl writes French amounts with (narrow) no-break spaces: compare on plain spaces. */
const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ').trim();

const money = (cents: number, lang: Lang) =>
  plain(new Intl.NumberFormat(lang, { style: 'currency', currency: 'USD' }).format(cents / 100));

/** How many lines an element's text takes (its text's boxes, grouped by their top). */
function lineCount(element: Locator): Promise<number> {
  return element.evaluate((node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    const tops = [...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top));
    return new Set(tops).size;
  });
}

/** The widest any part of the page reaches: the document scrolls sideways when it exceeds the screen. */
function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

/** The value shown under a stat card's label. */
function statValue(panel: Locator, label: string) {
  return panel
    .getByRole('term')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::dd');
}

async function openTab(page: Page, name: string): Promise<Locator> {
  await page.getByRole('tab', { name }).click();
  const panel = page.getByRole('tabpanel', { name });
  await expect(panel).toBeVisible();
  await waitForAnimations(page);
  return panel;
}

for (const lang of ['fr', 'en'] as const) {
  test.describe(`dashboard on a ${WIDTH} px phone in ${lang}`, () => {
    test.use({ locale: LOCALES[lang], viewport: { width: WIDTH, height: 800 }, hasTouch: true });
    const s = strings(lang, 'dashboard');

    test('every tab in view, nothing wider than the screen, amounts on one line', async ({ page }) => {
      const health = await watchPageHealth(page);
      await openBusyDashboard(page, lang);

      // The four tabs: each one's box inside the screen (none behind a sideways scroll).
      const tablist = page.getByRole('tablist', { name: s.tabs.label });
      await expect(tablist.getByRole('tab')).toHaveCount(TABS.length);
      for (const tab of TABS) {
        const box = (await tablist.getByRole('tab', { name: s.tabs[tab] }).boundingBox())!;
        expect(box.x, tab).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, tab).toBeLessThanOrEqual(WIDTH);
        await expect(tablist.getByRole('tab', { name: s.tabs[tab] })).toBeInViewport({ ratio: 1 });
      }

      for (const tab of TABS) {
        const panel = await openTab(page, s.tabs[tab]);
        expect(await pageWidth(page), `${tab}: page width`).toBeLessThanOrEqual(WIDTH);
        // Every amount and figure marked as such stays on one line.
        for (const amount of await panel.locator('.amount').all())
          expect(await lineCount(amount), `${tab}: "${plain(await amount.textContent())}"`).toBe(1);
        await expectNoAxeViolations(page, `${tab} at ${WIDTH} px (${lang})`);
      }

      // The overview's amounts are the busy affiliate's, each on one line.
      const overview = await openTab(page, s.tabs.overview);
      const earnings = statValue(overview, s.overview.stats.totalEarnings);
      const unpaid = statValue(overview, s.overview.stats.unpaidEarnings);
      expect(plain(await earnings.textContent())).toBe(money(BUSY.totalEarningsCents, lang));
      expect(plain(await unpaid.textContent())).toBe(money(BUSY.unpaidEarningsCents, lang));
      for (const value of [earnings, unpaid]) expect(await lineCount(value)).toBe(1);
      // The premium-rate bar's ends and count: readable, apart, inside their card.
      const premium = overview.getByRole('region', { name: s.overview.premium.progressTitle });
      const premiumBox = (await premium.boundingBox())!;
      const scale = premium.locator('.dashboard-progress__scale > span');
      await expect(scale).toHaveCount(3);
      const scaleBoxes = await Promise.all((await scale.all()).map(async (label) => (await label.boundingBox())!));
      for (const [index, box] of scaleBoxes.entries()) {
        expect(box.x, `scale label ${index}`).toBeGreaterThanOrEqual(premiumBox.x);
        expect(box.x + box.width, `scale label ${index}`).toBeLessThanOrEqual(premiumBox.x + premiumBox.width);
        expect(await lineCount(scale.nth(index)), `scale label ${index}`).toBe(1);
      }
      expectApart(scaleBoxes, 'premium scale');

      expectHealthy(health, `dashboard at ${WIDTH} px (${lang})`);
    });

    test('the referral codes: figures and copy button without scrolling sideways', async ({ page, context }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE_URL });
      const health = await watchPageHealth(page);
      await openBusyDashboard(page, lang, '#links');
      const links = page.getByRole('tabpanel', { name: s.tabs.links });
      const table = links.getByRole('table');
      await expect(table.getByRole('row')).toHaveCount(3);
      const card = links.getByRole('region', { name: s.links.table.title });
      const cardBox = (await card.boundingBox())!;
      // Nothing in the codes' card scrolls sideways.
      const scroller = table.locator('xpath=..');
      expect(await scroller.evaluate((node) => node.scrollWidth - node.clientWidth)).toBeLessThanOrEqual(0);

      const row = table.getByRole('row').filter({ hasText: LONG_DESCRIPTION });
      // Each figure is named on screen by its cell's label (the column headers are for screen readers).
      const conversions = row.locator(`[data-label="${s.links.table.conversions}"]`);
      await expect(conversions).toContainText(new Intl.NumberFormat(lang).format(BUSY.codeConversions));
      const copy = row.getByRole('button', { name: new RegExp(`^${s.links.table.copy}`) });
      for (const [what, element] of [
        ['copy button', copy],
        ['conversions', conversions],
      ] as const) {
        // Brought into view by scrolling the page only, it is wholly visible: inside the card.
        await element.evaluate((node) => window.scrollBy(0, node.getBoundingClientRect().top - 200));
        await expect(element, what).toBeInViewport({ ratio: 1 });
        const box = (await element.boundingBox())!;
        expect(box.x + box.width, what).toBeLessThanOrEqual(cardBox.x + cardBox.width);
      }
      expect(await pageWidth(page)).toBeLessThanOrEqual(WIDTH);

      await copy.click();
      await expect(links.getByRole('status').filter({ hasText: s.links.copied })).toBeVisible();
      expectHealthy(health, `codes at ${WIDTH} px (${lang})`);
    });

    test("the chart's dates stand apart", async ({ page }) => {
      const health = await watchPageHealth(page);
      await openBusyDashboard(page, lang);
      const overview = page.getByRole('tabpanel', { name: s.tabs.overview });
      const chart = overview.getByRole('img', { name: s.overview.chart.title.replace('{{days}}', '30') });
      await expect(chart).toBeVisible();
      const chartBox = (await chart.boundingBox())!;
      expect(chartBox.x + chartBox.width).toBeLessThanOrEqual(WIDTH);
      const dates = chart.locator('.bar-chart__label');
      expect(await dates.count()).toBeGreaterThanOrEqual(2);
      const boxes = await Promise.all((await dates.all()).map(async (date) => (await date.boundingBox())!));
      for (const box of boxes) {
        expect(box.x).toBeGreaterThanOrEqual(chartBox.x);
        expect(box.x + box.width).toBeLessThanOrEqual(chartBox.x + chartBox.width);
      }
      expectApart(boxes, 'chart dates');
      expectHealthy(health, `chart at ${WIDTH} px (${lang})`);
    });
  });
}

/** Boxes side by side (left to right) that do not overlap, with a few pixels between them. */
function expectApart(boxes: { x: number; y: number; width: number; height: number }[], what: string) {
  const sameRow = (a: { y: number; height: number }, b: { y: number; height: number }) =>
    a.y < b.y + b.height && b.y < a.y + a.height;
  for (const [index, a] of boxes.entries())
    for (const b of boxes.slice(index + 1))
      if (sameRow(a, b)) {
        const gap = Math.max(b.x - (a.x + a.width), a.x - (b.x + b.width));
        expect(gap, `${what}: ${JSON.stringify(a)} and ${JSON.stringify(b)}`).toBeGreaterThanOrEqual(4);
      }
}
