import { type Page, expect, test } from '@playwright/test';
import { CONSENT_COOKIE } from '@skanova/shared/site/constants';
import { BASE_URL } from '../playwright.config';
import { type Lang, strings } from './helpers/i18n';
import { expectNoAxeViolations } from './helpers/axe';
import { expectHealthy, watchPageHealth } from './helpers/page-health';
import { SEED_OPERATOR } from './helpers/seed-accounts';

// The operators' overview (docs/product/routes-and-screens.md#operator-console), in both languages: it is the first screen once an
// operator signs in, it shows the server's figures (in the page's number, money and date formats),
// its links open the tabs that handle what waits, and at 375 px neither it nor the affiliates,
// conversions and payouts tables are wider than the screen, with dates on at most two lines and
// codes whole. Figures come from a fixed answer where exact values matter: the test server is shared
// by every spec, whose accounts and tickets change its real figures meanwhile.

const LOCALES: Record<Lang, string> = { fr: 'fr-FR', en: 'en-US' };
const SAME_ORIGIN = { origin: BASE_URL, 'content-type': 'application/json' };

function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name] ?? ''));
}

const MONTHS = [
  '2025-04',
  '2025-05',
  '2025-06',
  '2025-07',
  '2025-08',
  '2025-09',
  '2025-10',
  '2025-11',
  '2025-12',
].concat(['2026-01', '2026-02', '2026-03']);

const OVERVIEW = {
  asOf: '2026-03-10T09:30:00.000Z',
  affiliates: { active: 1234, pending: 2 },
  totals: { clicks: 98_765, installs: 4321, conversions: 1234 },
  commissions: {
    pending: { count: 40, cents: 8400 },
    approved: { count: 75, cents: 15_000 },
    paid: { count: 1119, cents: 223_800 },
  },
  nextPayday: { date: '2026-03-15', cutoff: '2026-03-01T00:00:00.000Z', payouts: 7, cents: 14_200 },
  months: MONTHS.map((month, index) => ({
    month,
    clicks: 800 + index * 450,
    installs: 30 + index * 20,
    conversions: 8 + index * 5,
  })),
  needsAction: { pendingApplications: 2, failedPayouts: { count: 1, payday: '2026-02-15' }, openTickets: 5 },
};

/** Lists with what makes a table wide on a phone: long names and e-mails, several codes, 25-character references. */
const AFFILIATES = {
  items: [
    {
      id: 'aff-long',
      email: 'maximilienne.delatour-dubois@example-longdomain.com',
      firstName: 'Maximilienne',
      lastName: 'de La Tour-Dubois',
      companyName: 'Laboratoires Dermatologiques Associés',
      status: 'active',
      disabled: false,
      deleted: false,
      createdAt: '2025-11-27T23:45:00.000Z',
      codes: ['K7M2QX4P', 'Q9Z3LM7T', 'W4N8JAK4'],
      qualifiedConversions: 1234,
      earningsCents: 246_800,
      unpaidCents: 123_400,
    },
    {
      id: 'aff-pending',
      email: 'ana@example.com',
      firstName: 'Ana',
      lastName: 'Martin',
      companyName: null,
      status: 'pending',
      disabled: false,
      deleted: false,
      createdAt: '2026-03-09T08:05:00.000Z',
      codes: [],
      qualifiedConversions: 0,
      earningsCents: 0,
      unpaidCents: 0,
    },
  ],
  total: 2,
  page: 1,
  pageSize: 25,
};

const conversion = (id: string, overrides: Record<string, unknown>) => ({
  id,
  affiliateId: 'aff-long',
  affiliateName: 'Maximilienne de La Tour-Dubois',
  affiliateEmail: 'maximilienne.delatour-dubois@example-longdomain.com',
  code: 'K7M2QX4P',
  store: 'APP_STORE',
  productId: 'premium_annual',
  occurredAt: '2026-02-27T23:45:00.000Z',
  commissionCents: 400,
  rateTier: 'premium',
  // Why this amount: the longest explanation the list writes, on a phone too.
  why: {
    commissionKind: 'first-purchase',
    defaultGroup: true,
    groupName: 'Default',
    ruleVersion: 1,
    pricing: { kind: 'flat', qualifiedBefore: 1234, step: 2, steps: 2 },
  },
  status: 'approved',
  approvedAt: '2026-03-29T23:45:00.000Z',
  reversedAt: null,
  reversalReason: null,
  refundedAt: null,
  payoutId: null,
  ...overrides,
});

const CONVERSIONS = {
  items: [
    conversion('103', {}),
    conversion('102', {
      code: 'Q9Z3LM7T',
      occurredAt: '2026-01-05T07:15:00.000Z',
      status: 'reversed',
      commissionCents: 200,
      rateTier: 'standard',
      reversalReason: 'Refunded by the store after a duplicate purchase',
      refundedAt: '2026-01-20T10:00:00.000Z',
    }),
    conversion('101', { code: null, occurredAt: '2025-12-31T23:59:00.000Z', status: 'paid' }),
  ],
  total: 3,
  page: 1,
  pageSize: 25,
};

const payout = (id: string, overrides: Record<string, unknown>) => ({
  id,
  affiliateId: 'aff-long',
  affiliateName: 'Maximilienne de La Tour-Dubois',
  affiliateEmail: 'maximilienne.delatour-dubois@example-longdomain.com',
  periodStart: '2026-01-01',
  periodEnd: '2026-01-31',
  amountCents: 123_456,
  currency: 'USD',
  method: 'bank_transfer',
  status: 'failed',
  scheduledFor: '2026-02-15',
  exchangeRate: '0.923100',
  amountPaidCents: 113_962,
  paidCurrency: 'EUR',
  reference: 'SEPA-2026-02-15-000123',
  failureReason: 'Account closed by the bank',
  sentAt: '2026-02-16T09:00:00.000Z',
  paidAt: null,
  failedAt: '2026-02-20T09:00:00.000Z',
  transferReference: '1N710W0MAPS7TU6KM9YB74VQD',
  exportId: null,
  ...overrides,
});

const PAYOUTS = {
  payouts: [
    payout('5f0c6a38-8f3e-4a8e-9d55-2f6f1c7f0a01', {}),
    payout('5f0c6a38-8f3e-4a8e-9d55-2f6f1c7f0a02', {
      affiliateName: 'Ana Martin',
      affiliateEmail: 'ana@example.com',
      amountCents: 2000,
      method: 'paypal',
      status: 'paid',
      exchangeRate: null,
      amountPaidCents: null,
      paidCurrency: null,
      reference: null,
      failureReason: null,
      paidAt: '2026-02-17T09:00:00.000Z',
      failedAt: null,
      transferReference: 'Z8Q4M2K7P9T3W6N1B5V8C2X4R',
    }),
  ],
};

/** The console's functions answer these instead of the shared test server. */
async function answerWith(page: Page, answers: Record<string, unknown>) {
  for (const [name, result] of Object.entries(answers))
    await page.route(`**/api/fn/${name}`, (route) => route.fulfill({ json: { result } }));
}

async function signInWithTheApi(page: Page) {
  const response = await page.request.post('/api/auth/sign-in/email', {
    headers: SAME_ORIGIN,
    data: { email: SEED_OPERATOR.email, password: SEED_OPERATOR.password },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** Elements that stick out of the screen sideways (the tab strip scrolls on purpose and is left out). */
async function elementsOutsideTheScreen(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    if (document.documentElement.scrollWidth > width)
      found.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${width})`);
    /** Inside a visually hidden box (1 px, clipped): read by screen readers, never seen. */
    const visuallyHidden = (element: Element) => {
      for (let node: Element | null = element; node; node = node.parentElement)
        if (node.getBoundingClientRect().width <= 1 && getComputedStyle(node).overflow === 'hidden') return true;
      return false;
    };
    for (const element of document.body.querySelectorAll('*')) {
      if (element.closest('[role="tablist"]')) continue;
      const rect = element.getBoundingClientRect();
      // What is not rendered has no box.
      if (rect.width === 0 || rect.height === 0 || visuallyHidden(element)) continue;
      if (rect.left < -0.5 || rect.right > width + 0.5 || rect.width > width)
        found.push(`${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 40)}"`);
    }
    return found.slice(0, 10);
  });
}

/**
 * Dates of the column named `dateColumn` on more than two lines, and codes on more than one line or
 * not entirely visible (cut by the table's box or the screen), in every table on the page.
 */
async function cutDatesAndCodes(page: Page, dateColumn: string | null): Promise<string[]> {
  return page.evaluate((column) => {
    const width = document.documentElement.clientWidth;
    const lines = (element: Element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)))
        .size;
    };
    const found: string[] = [];
    for (const table of document.querySelectorAll('table')) {
      const box = (table.closest('[role="region"]') ?? table).getBoundingClientRect();
      for (const code of table.querySelectorAll('tbody code')) {
        const rect = code.getBoundingClientRect();
        const inside = rect.left >= Math.max(0, box.left) - 0.5 && rect.right <= Math.min(width, box.right) + 0.5;
        if (lines(code) !== 1 || !inside)
          found.push(`code ${code.textContent} (${lines(code)} lines, inside: ${inside})`);
      }
      if (column === null) continue;
      const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent?.trim());
      const index = headers.indexOf(column);
      if (index < 0) continue;
      for (const row of table.querySelectorAll('tbody tr')) {
        const cell = (row as HTMLTableRowElement).cells[index];
        if (cell && lines(cell) > 2) found.push(`date ${cell.textContent} on ${lines(cell)} lines`);
      }
    }
    return found;
  }, dateColumn);
}

for (const lang of ['fr', 'en'] as const) {
  test.describe(`operators' overview in ${lang}`, () => {
    test.use({ locale: LOCALES[lang] });
    const admin = strings(lang, 'admin');
    const o = admin.overview;
    const count = (value: number) => new Intl.NumberFormat(lang).format(value);
    const money = (cents: number) =>
      new Intl.NumberFormat(lang, { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }).format(cents / 100);
    const day = (iso: string) =>
      new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
        new Date(iso),
      );

    test.beforeEach(async ({ context }) => {
      await context.addCookies([{ name: CONSENT_COOKIE, value: 'denied', url: BASE_URL }]);
    });

    test('is the first screen after signing in, and its links open the tabs that handle what waits', async ({
      page,
      request,
    }) => {
      const health = await watchPageHealth(page);
      // An open ticket of this test's own: the count of open tickets is at least 1.
      const ticketName = `Overview ${lang} ${Date.now().toString(36)}`;
      const ticket = await request.post('/api/fn/submitContactForm', {
        headers: SAME_ORIGIN,
        data: {
          data: {
            name: ticketName,
            email: 'overview@example.com',
            subject: 'other',
            message: 'Is it open?',
            language: lang,
          },
        },
      });
      expect(ticket.status()).toBe(200);

      const auth = strings(lang, 'auth');
      await page.goto(`/admin?lang=${lang}`);
      const form = page.getByRole('form', { name: admin.signIn.title });
      await form.getByLabel(auth.fields.email, { exact: true }).fill(SEED_OPERATOR.email);
      await form.getByLabel(auth.fields.password, { exact: true }).fill(SEED_OPERATOR.password);
      await form.getByRole('button', { name: admin.signIn.submit }).click();

      await expect(page.getByRole('tab', { name: admin.tabs.overview })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByRole('tab').first()).toHaveText(admin.tabs.overview);
      const main = page.getByRole('main');
      for (const title of [o.action.title, o.programme.title, o.commissions.title, o.chart.title])
        await expect(main.getByRole('heading', { level: 3, name: title, exact: true })).toBeVisible();
      await expect(main.getByRole('img', { name: o.chart.title })).toBeVisible();
      await expectNoAxeViolations(page, `overview (${lang})`);

      // The server's figures: at least this test's ticket is open; its link opens the tickets.
      const tickets = main.getByRole('link', {
        name: new RegExp(`^[\\d\\s\\u202f\\u00a0,.]+ ${o.action.openTickets}$`),
      });
      const open = Number((await tickets.textContent())!.replace(/\D/g, ''));
      expect(open).toBeGreaterThanOrEqual(1);
      await tickets.click();
      await expect(page.getByRole('tab', { name: admin.tabs.tickets })).toHaveAttribute('aria-selected', 'true');
      await expect(page).toHaveURL(/#tickets$/);
      await expect(main.getByRole('heading', { level: 4, name: new RegExp(ticketName) })).toBeVisible();

      // The pending applications' link opens the affiliates filtered by "pending".
      await page.getByRole('tab', { name: admin.tabs.overview }).click();
      await main.getByRole('link', { name: new RegExp(`${o.action.pendingApplications}$`) }).click();
      await expect(page.getByRole('tab', { name: admin.tabs.affiliates })).toHaveAttribute('aria-selected', 'true');
      await expect(main.getByLabel(admin.affiliates.status)).toHaveValue('pending');
      await page.waitForLoadState('networkidle');
      expectHealthy(health, `overview (${lang})`);
    });

    test('shows every figure in the page’s formats, from cents to dollars', async ({ page }) => {
      await answerWith(page, { adminGetOverview: OVERVIEW });
      await signInWithTheApi(page);
      await page.goto(`/admin?lang=${lang}`);
      const main = page.getByRole('main');

      const action = main.getByRole('region', { name: o.action.title });
      await expect(action.getByRole('link')).toHaveText([
        `${count(2)} ${o.action.pendingApplications}`,
        `${count(1)} ${fill(o.action.failedPayouts, { date: day('2026-02-15') })}`,
        `${count(5)} ${o.action.openTickets}`,
      ]);

      const programme = main.getByRole('region', { name: o.programme.title });
      await expect(programme.getByRole('term')).toHaveText([
        o.programme.activeAffiliates,
        o.programme.pendingAffiliates,
        o.programme.clicks,
        o.programme.installs,
        o.programme.conversions,
      ]);
      await expect(programme.getByRole('definition')).toHaveText([
        count(1234),
        count(2),
        count(98_765),
        count(4321),
        count(1234),
      ]);

      const commissions = main.getByRole('region', { name: o.commissions.title });
      await expect(commissions.getByRole('row')).toHaveText([
        `${o.commissions.status}${o.commissions.count}${o.commissions.amount}`,
        `${o.commissions.pending}${count(40)}${money(8400)}`,
        `${o.commissions.approved}${count(75)}${money(15_000)}`,
        `${o.commissions.paid}${count(1119)}${money(223_800)}`,
      ]);

      const payday = main.getByRole('region', { name: fill(o.payday.title, { date: day('2026-03-15') }) });
      await expect(payday.getByRole('definition')).toHaveText([money(14_200), count(7)]);
      await expect(payday).toContainText(money(2000));

      await main.getByText(o.chart.showTable).click();
      const table = main.getByRole('table', { name: o.chart.title });
      await expect(table.getByRole('row')).toHaveCount(13);
      const march = new Intl.DateTimeFormat(lang, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
        new Date('2026-03-01T00:00:00Z'),
      );
      await expect(table.getByRole('row').last()).toHaveText(`${march}${count(5750)}${count(250)}${count(63)}`);

      // The failed payouts' link opens that payday's payouts filtered by "failed".
      await answerWith(page, { adminListPayouts: PAYOUTS });
      await action.getByRole('link', { name: new RegExp(o.action.failedPayouts.split('{{')[0]) }).click();
      await expect(page.getByRole('tab', { name: admin.tabs.payouts })).toHaveAttribute('aria-selected', 'true');
      await expect(main.getByLabel(admin.payouts.payday.month)).toHaveValue('2026-02');
      await expect(main.getByLabel(admin.payouts.list.status)).toHaveValue('failed');
    });

    test('at 375 px the overview and the tables fit the screen, dates and codes whole', async ({ page }) => {
      await page.setViewportSize({ width: 375, height: 800 });
      await answerWith(page, {
        adminGetOverview: OVERVIEW,
        adminListAffiliates: AFFILIATES,
        adminListConversions: CONVERSIONS,
        adminListPayouts: PAYOUTS,
      });
      await signInWithTheApi(page);
      await page.goto(`/admin?lang=${lang}`);
      const main = page.getByRole('main');
      await expect(main.getByRole('img', { name: o.chart.title })).toBeVisible();
      await main.getByText(o.chart.showTable).click();
      expect(await elementsOutsideTheScreen(page), 'overview').toEqual([]);
      await expectNoAxeViolations(page, `overview at 375 px (${lang})`);

      const tables = [
        { tab: 'affiliates', date: admin.affiliates.columns.joined, row: 'Maximilienne de La Tour-Dubois' },
        { tab: 'conversions', date: admin.conversions.columns.occurredAt, row: 'K7M2QX4P' },
        { tab: 'payouts', date: null, row: '1N710W0MAPS7TU6KM9YB74VQD' },
      ] as const;
      for (const { tab, date, row } of tables) {
        await page.getByRole('tab', { name: admin.tabs[tab] }).click();
        await expect(main.getByRole('row').filter({ hasText: row }).first()).toBeVisible();
        expect(await elementsOutsideTheScreen(page), tab).toEqual([]);
        expect(await cutDatesAndCodes(page, date), tab).toEqual([]);
        await expectNoAxeViolations(page, `${tab} at 375 px (${lang})`);
      }
    });
  });
}

// The console's strings are not in the loader map every public page carries: the console's own chunk
// brings their loaders (lib/i18n.ts `addNamespaceLoaders`). Switching language must still load them.
test('the console switches language in place, its own strings included', async ({ page, context }) => {
  await context.addCookies([{ name: CONSENT_COOKIE, value: 'denied', url: BASE_URL }]);
  const health = await watchPageHealth(page);
  await answerWith(page, { adminGetOverview: OVERVIEW });
  await signInWithTheApi(page);
  await page.goto('/admin?lang=fr');
  const fr = strings('fr', 'admin');
  const en = strings('en', 'admin');
  await expect(page.getByRole('tab', { name: fr.tabs.overview })).toHaveAttribute('aria-selected', 'true');

  await page.getByRole('button', { name: strings('fr').language.switchTo }).click();

  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('tab', { name: en.tabs.overview })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('main').getByRole('heading', { level: 3, name: en.overview.chart.title })).toBeVisible();
  expectHealthy(health, 'console after switching language');
});
