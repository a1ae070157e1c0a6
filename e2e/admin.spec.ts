import { readFileSync } from 'node:fs';
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { CONSENT_COOKIE } from '@skanova/shared/site/constants';
import { BASE_URL } from '../playwright.config';
import { createAffiliateAccount, signUpViaApi } from './helpers/affiliate';
import { type Lang, strings } from './helpers/i18n';
import { expectNoAxeViolations } from './helpers/axe';
import { expectHealthy, watchPageHealth } from './helpers/page-health';
import { SEED_OPERATOR } from './helpers/seed-accounts';

// The operator console (docs/product/rules-and-constants.md#applications-and-disabled-accounts, docs/product/routes-and-screens.md#operator-console) in both languages, as people use it: signed
// out, /admin asks for a sign-in; an affiliate is told it is for operators only; the operator
// signs in, finds an affiliate, disables the account (its sign-in is refused) and enables it again,
// marks a support ticket handled, reads the web vitals and the audit log, and runs the payouts of
// an empty month. Every section passes axe; the page reports no CSP, console or hydration error.

const LOCALES: Record<Lang, string> = { fr: 'fr-FR', en: 'en-US' };
const SAME_ORIGIN = { origin: BASE_URL, 'content-type': 'application/json' };

/** `{{name}}` placeholders of a translation filled in. */
function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name] ?? ''));
}

async function signInStatus(request: APIRequestContext, email: string, password: string): Promise<number> {
  return (await request.post('/api/auth/sign-in/email', { headers: SAME_ORIGIN, data: { email, password } })).status();
}

/** Opens /admin in a language and signs in with its form as the seeded operator. */
async function signInAsOperator(page: Page, lang: Lang) {
  const admin = strings(lang, 'admin');
  const auth = strings(lang, 'auth');
  await page.goto(`/admin?lang=${lang}`);
  const form = page.getByRole('form', { name: admin.signIn.title });
  await form.getByLabel(auth.fields.email, { exact: true }).fill(SEED_OPERATOR.email);
  await form.getByLabel(auth.fields.password, { exact: true }).fill(SEED_OPERATOR.password);
  await form.getByRole('button', { name: admin.signIn.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: admin.header.title })).toBeVisible();
  await expect(page.getByText(fill(admin.header.signedInAs, { email: SEED_OPERATOR.email }))).toBeVisible();
}

for (const lang of ['fr', 'en'] as const) {
  test.describe(`operator console in ${lang}`, () => {
    test.use({ locale: LOCALES[lang] });
    const admin = strings(lang, 'admin');

    test.beforeEach(async ({ context }) => {
      // The visitor answered the consent banner on an earlier visit: it does not cover the page.
      await context.addCookies([{ name: CONSENT_COOKIE, value: 'denied', url: BASE_URL }]);
    });

    test('signed out, /admin asks for a sign-in; a disabled account is refused', async ({ page }) => {
      const health = await watchPageHealth(page);
      await page.goto(`/admin?lang=${lang}`);
      await expect(page).toHaveTitle(fill(admin.meta.title, { brand: 'Skanova' }));
      await expect(page.getByRole('heading', { level: 1, name: admin.signIn.title })).toBeVisible();
      const auth = strings(lang, 'auth');
      const form = page.getByRole('form', { name: admin.signIn.title });
      await form.getByRole('button', { name: admin.signIn.submit }).click();
      await expect(page.getByRole('alert')).toHaveText(auth.errors.loginRequired);
      await form.getByLabel(auth.fields.email, { exact: true }).fill('disabled@skanova.test');
      await form.getByLabel(auth.fields.password, { exact: true }).fill('disabled-password-1');
      await form.getByRole('button', { name: admin.signIn.submit }).click();
      await expect(page.getByRole('alert')).toHaveText(auth.login.errors.disabled);
      await expectNoAxeViolations(page, `/admin signed out (${lang})`);
      health.consoleErrors = health.consoleErrors.filter((line) => !/status of 403/.test(line));
      expectHealthy(health, `/admin signed out (${lang})`);
    });

    test('an affiliate is told the console is for operators only', async ({ page }) => {
      const affiliate = await signUpViaApi(page, { language: lang });
      await page.goto(`/admin?lang=${lang}`);
      await expect(page.getByRole('heading', { level: 1, name: admin.denied.title })).toBeVisible();
      await expect(page.getByText(fill(admin.denied.text, { brand: 'Skanova', email: affiliate.email }))).toBeVisible();
      // The server refuses the console's functions to that session whatever the page shows.
      const call = await page.request.post('/api/fn/adminListAffiliates', { headers: SAME_ORIGIN, data: { data: {} } });
      expect(call.status()).toBe(403);
      await expectNoAxeViolations(page, `/admin as an affiliate (${lang})`);
      await page.getByRole('button', { name: admin.denied.switchAccount }).click();
      await expect(page.getByRole('heading', { level: 1, name: admin.signIn.title })).toBeVisible();
    });

    test('the operator disables and enables an affiliate, handles a ticket, reads vitals and the audit log', async ({
      page,
      request,
    }) => {
      const health = await watchPageHealth(page);
      // What the operator will look for: a fresh affiliate, a ticket and web-vitals samples.
      const affiliate = await createAffiliateAccount(request, {
        firstName: `Opal${lang}`,
        lastName: 'Console',
        language: lang,
      });
      const ticketName = `Ticket ${lang} ${Date.now().toString(36)}`;
      const ticket = await request.post('/api/fn/submitContactForm', {
        headers: SAME_ORIGIN,
        data: {
          data: {
            name: ticketName,
            email: 'ticket@example.com',
            subject: 'technical',
            message: 'The scan stops at 80 percent.',
            language: lang,
          },
        },
      });
      expect(ticket.status()).toBe(200);
      const vitalsPage = `/e2e-admin-${lang}-${Date.now().toString(36)}`;
      const vitals = await request.post('/api/vitals', {
        headers: { 'content-type': 'application/json' },
        data: [1200, 1500, 5000, 6000].map((value) => ({ page: vitalsPage, name: 'LCP', value })),
      });
      expect(vitals.status()).toBe(204);

      await signInAsOperator(page, lang);
      const main = page.getByRole('main');
      // The console opens on its overview (e2e/admin-overview.spec.ts); the affiliates are the next tab.
      await expect(page.getByRole('tab', { name: admin.tabs.overview })).toHaveAttribute('aria-selected', 'true');
      await page.getByRole('tab', { name: admin.tabs.affiliates }).click();
      await expect(page.getByRole('tab', { name: admin.tabs.affiliates })).toHaveAttribute('aria-selected', 'true');

      // Find the affiliate and open their detail.
      await main.getByLabel(admin.affiliates.query).fill(affiliate.email);
      await main.getByRole('button', { name: admin.affiliates.search, exact: true }).click();
      const row = main.getByRole('row').filter({ hasText: affiliate.email });
      await expect(row).toHaveCount(1);
      await expect(row.getByText(admin.affiliates.statuses.active)).toBeVisible();
      await row.getByRole('button', { name: `${admin.affiliates.details} – Opal${lang} Console` }).click();
      const detail = main.getByRole('region', { name: `Opal${lang} Console` });
      await expect(detail.getByRole('heading', { level: 3, name: `Opal${lang} Console` })).toBeFocused();
      await expectNoAxeViolations(page, `affiliate detail (${lang})`);

      // Disable, with a reason, after confirming; sign-in is then refused.
      await detail.getByRole('button', { name: admin.decisions.actions.disable }).click();
      const confirm = detail.getByRole('region', {
        name: fill(admin.decisions.confirm.disable.title, { name: `Opal${lang} Console` }),
      });
      await expect(confirm).toBeVisible();
      await confirm.getByLabel(admin.confirm.reasonOptional).fill('Spam');
      await confirm.getByRole('button', { name: admin.decisions.actions.disable }).click();
      await expect(detail.getByRole('status')).toHaveText(
        fill(admin.decisions.done.disable, { name: `Opal${lang} Console` }),
      );
      await expect(row.getByText(admin.affiliates.statuses.disabled)).toBeVisible();
      expect(await signInStatus(request, affiliate.email, affiliate.password)).toBe(403);

      // Enable again: sign-in works.
      await detail.getByRole('button', { name: admin.decisions.actions.enable }).click();
      await detail
        .getByRole('region', { name: fill(admin.decisions.confirm.enable.title, { name: `Opal${lang} Console` }) })
        .getByRole('button', { name: admin.decisions.actions.enable })
        .click();
      await expect(detail.getByRole('status')).toHaveText(
        fill(admin.decisions.done.enable, { name: `Opal${lang} Console` }),
      );
      await expect(row.getByText(admin.affiliates.statuses.active)).toBeVisible();
      expect(await signInStatus(request, affiliate.email, affiliate.password)).toBe(200);

      // The ticket: listed among the open ones, then handled.
      await page.getByRole('tab', { name: admin.tabs.tickets }).click();
      await expect(page).toHaveURL(/#tickets$/);
      const subject = strings(lang, 'support').form.subjects.technical;
      const article = main.getByRole('article', { name: fill(admin.tickets.heading, { subject, name: ticketName }) });
      await expect(article).toContainText('The scan stops at 80 percent.');
      await expectNoAxeViolations(page, `tickets (${lang})`);
      await article.getByRole('button', { name: `${admin.tickets.markHandled} – ${ticketName}` }).click();
      await expect(
        main.getByRole('status').filter({ hasText: fill(admin.tickets.handledNotice, { name: ticketName }) }),
      ).toBeVisible();
      await expect(article).toBeHidden();
      await main.getByLabel(admin.tickets.status).selectOption('handled');
      await expect(article.getByText(admin.tickets.statuses.handled, { exact: true })).toBeVisible();

      // Web vitals: p75 of the four samples (5,250 ms) is poor.
      await page.getByRole('tab', { name: admin.tabs.vitals }).click();
      const vitalRow = main.getByRole('row').filter({ hasText: vitalsPage });
      await expect(vitalRow).toContainText(admin.vitals.ratings.poor);
      await expect(vitalRow.getByRole('cell').nth(1)).toHaveText(/^5[\s\u00a0\u202f,.]?250\sms$/);
      await expectNoAxeViolations(page, `vitals (${lang})`);

      // The audit log shows both decisions, newest first, by the operator, in words: who, what, the
      // affiliate, the status before → after and the reason; no raw JSON; the page fits 1280 px.
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByRole('tab', { name: admin.tabs.audit }).click();
      await main.getByLabel(admin.audit.action).fill('affiliate.');
      await main.getByRole('button', { name: admin.audit.filter, exact: true }).click();
      const audit = admin.audit;
      const statuses = admin.affiliates.statuses;
      const entries = main
        .getByRole('row')
        .filter({ hasText: SEED_OPERATOR.email })
        .filter({ has: page.getByRole('button', { name: `Opal${lang} Console` }) });
      const disabledEntry = entries.filter({ hasText: audit.actions.affiliate.disabled });
      const enabledEntry = entries.filter({ hasText: audit.actions.affiliate.enabled });
      await expect(disabledEntry).toHaveCount(1);
      await expect(enabledEntry).toHaveCount(1);
      // Newest first: the entry re-enabling the account is above the one disabling it.
      await expect(entries.first()).toContainText(audit.actions.affiliate.enabled);
      const change = (row: typeof entries) => row.getByRole('definition').filter({ hasText: audit.values.changedTo });
      await expect(change(disabledEntry)).toHaveText(
        `${statuses.active} → , ${audit.values.changedTo} ${statuses.disabled}`,
      );
      await expect(change(enabledEntry)).toHaveText(
        `${statuses.disabled} → , ${audit.values.changedTo} ${statuses.active}`,
      );
      await expect(disabledEntry.getByRole('definition').filter({ hasText: /^Spam$/ })).toBeVisible();
      for (const text of await entries.allTextContents()) expect(text).not.toMatch(/[{}]|":/);
      const widths = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        viewport: document.documentElement.clientWidth,
        table: [...document.querySelectorAll('.admin-table-scroll')].map(
          (region) => region.scrollWidth - region.clientWidth,
        ),
      }));
      expect(widths.page).toBeLessThanOrEqual(widths.viewport);
      expect(widths.table).toEqual([0]);
      await expectNoAxeViolations(page, `audit log (${lang})`);
      // The affiliate's name opens their page in the console.
      await disabledEntry.getByRole('button', { name: `Opal${lang} Console` }).click();
      await expect(page.getByRole('tab', { name: admin.tabs.affiliates })).toHaveAttribute('aria-selected', 'true');
      await expect(main.getByRole('region', { name: `Opal${lang} Console` })).toBeVisible();

      // Conversions: the section opens and filters (this affiliate has none).
      await page.getByRole('tab', { name: admin.tabs.conversions }).click();
      await main.getByLabel(admin.conversions.code).fill('NOSUCHCD');
      await main.getByRole('button', { name: admin.conversions.filter, exact: true }).click();
      await expect(main.getByText(admin.list.empty)).toBeVisible();
      await expectNoAxeViolations(page, `conversions (${lang})`);

      // Keyboard: the tabs move with the arrow keys.
      await page.getByRole('tab', { name: admin.tabs.conversions }).focus();
      await page.keyboard.press('ArrowRight');
      await expect(page.getByRole('tab', { name: admin.tabs.payouts })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByRole('tab', { name: admin.tabs.payouts })).toBeFocused();

      await page.waitForLoadState('networkidle');
      expectHealthy(health, `/admin as the operator (${lang})`);
    });

    test('the operator runs the payouts of an empty month', async ({ page }) => {
      const health = await watchPageHealth(page);
      // A month of its own per language: the two run in parallel on one server.
      const month = lang === 'fr' ? '2020-01' : '2020-02';
      const payday = new Date(`${month}-15T00:00:00Z`);
      const day = new Intl.DateTimeFormat(lang, {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      }).format(payday);
      const zero = new Intl.NumberFormat(lang, { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }).format(
        0,
      );
      await signInAsOperator(page, lang);
      await page.getByRole('tab', { name: admin.tabs.payouts }).click();
      const main = page.getByRole('main');
      await main.getByLabel(admin.payouts.payday.month).fill(month);
      await main.getByRole('button', { name: fill(admin.payouts.run.button, { date: day }) }).click();
      const result = main
        .getByRole('status')
        .filter({ hasText: fill(admin.payouts.run.created, { count: 0, total: zero }) });
      await expect(result).toContainText(
        fill(admin.payouts.run.summary, { count: 0, total: zero, below: 0, noMethod: 0 }),
      );
      await expect(
        main.getByRole('heading', { name: fill(admin.payouts.list.title, { date: day }), exact: true }),
      ).toBeVisible();
      await expect(main.getByText(admin.list.empty)).toBeVisible();
      await expectNoAxeViolations(page, `payouts (${lang})`);
      // Nothing is scheduled that month: the export says so instead of downloading an empty file.
      await main.getByRole('button', { name: admin.payouts.export.button }).click();
      await expect(main.getByRole('alert')).toBeVisible();
      health.consoleErrors = health.consoleErrors.filter((line) => !/status of 400/.test(line));

      // A SEPA file is saved as a download under the page's CSP (the full-funnel story exports real
      // payouts; here the server's answer is stood in for, since this month has none).
      const xml = '<?xml version="1.0" encoding="UTF-8"?><Document/>';
      let requested: unknown;
      await page.route('**/api/fn/adminExportPayouts', async (route) => {
        requested = route.request().postDataJSON();
        await route.fulfill({
          contentType: 'application/json',
          body: JSON.stringify({
            result: {
              exportId: 'e2e',
              fileName: `sepa-${month}-15.xml`,
              contentType: 'application/xml',
              content: xml,
              payoutCount: 1,
              totalCents: 1846,
              currency: 'EUR',
              messageId: 'E2E',
              format: 'pain.001.001.03',
              exchangeRate: '0.923100',
              created: true,
              remaining: 0,
            },
          }),
        });
      });
      await main.getByRole('radio', { name: admin.payouts.export.kinds.sepa }).check();
      const exportButton = main.getByRole('button', { name: admin.payouts.export.button });
      await expect(exportButton).toBeDisabled();
      await main.getByLabel(admin.payouts.export.rate).fill('0.9231');
      await main.getByLabel(admin.payouts.export.version).selectOption('pain.001.001.03');
      const download = page.waitForEvent('download');
      await exportButton.click();
      const file = await download;
      expect(file.suggestedFilename()).toBe(`sepa-${month}-15.xml`);
      expect(readFileSync(await file.path(), 'utf8')).toBe(xml);
      expect(requested).toEqual({
        data: { kind: 'sepa', payday: `${month}-15`, exchangeRate: '0.9231', painVersion: 'pain.001.001.03' },
      });
      await expect(main.getByRole('status').filter({ hasText: `sepa-${month}-15.xml` })).toBeVisible();
      expectHealthy(health, `payouts (${lang})`);
    });
  });
}
