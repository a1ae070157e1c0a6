import { type BrowserContext, type Page, expect, test } from '@playwright/test';
import { MAX_REFERRAL_CODES } from '@skanova/shared/affiliate/programme';
import { CONSENT_COOKIE } from '@skanova/shared/site/constants';
import { BASE_URL } from '../playwright.config';
import { type TestAffiliate, logIn, signUpViaApi } from './helpers/affiliate';
import { expectNoAxeViolations } from './helpers/axe';
import { DEVICES } from './helpers/devices';
import { type Lang, strings } from './helpers/i18n';
import { type PageHealth, expectHealthy, watchPageHealth } from './helpers/page-health';

// The affiliate dashboard (docs/product/routes-and-screens.md#dashboard) in both languages, as an affiliate uses it: a fresh
// account from the signup function, then the header, the four tabs (mouse and keyboard), the
// overview of a new account, referral links up to the limit, the payment method (invalid IBAN, then
// a valid one), the settings (notifications, password, deletion) and logout. Every tab passes axe,
// and no page reports a CSP violation, a console error or a hydration error.

const LOCALES: Record<Lang, string> = { fr: 'fr-FR', en: 'en-US' };
const VALID_IBAN = 'FR76 3000 6000 0112 3456 7890 189';
const VALID_BIC = 'BNPAFRPP';

/** `{{name}}` placeholders of a translation filled in (the brand is not needed on these strings). */
function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name] ?? ''));
}

/** Intl writes French amounts with (narrow) no-break spaces: compare on plain spaces. */
const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ').trim();

/** A fresh affiliate, signed in in the page's context (the signup answer sets the session cookie). */
function signUp(page: Page, lang: Lang): Promise<TestAffiliate> {
  return signUpViaApi(page, { language: lang, firstName: 'Ada', lastName: 'Lovelace' });
}

/** What the sign-in endpoint answers for these credentials (the login page's own tests cover its form). */
async function signInStatus(context: BrowserContext, email: string, password: string): Promise<number> {
  const response = await context.request.post('/api/auth/sign-in/email', {
    headers: { origin: BASE_URL },
    data: { email, password },
  });
  return response.status();
}

async function openDashboard(page: Page, lang: Lang, hash = '') {
  await page.goto(`/affiliate/dashboard?lang=${lang}${hash}`);
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
  await expect(page.getByRole('tablist')).toBeVisible();
}

/** The value shown under a stat card's label. */
function statValue(page: Page, label: string) {
  return page
    .getByRole('term')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::dd');
}

/** The browser's own report of a refused request (an answer the test asked for on purpose). */
function ignoreExpectedRefusals(health: PageHealth, statuses: number[]) {
  const expected = new RegExp(`Failed to load resource: the server responded with a status of (${statuses.join('|')})`);
  health.consoleErrors = health.consoleErrors.filter((line) => !expected.test(line));
}

for (const lang of ['fr', 'en'] as const) {
  test.describe(`affiliate dashboard in ${lang}`, () => {
    test.use({ locale: LOCALES[lang] });
    const s = strings(lang, 'dashboard');
    const payment = strings(lang, 'payment');

    test.beforeEach(async ({ context }) => {
      // The visitor answered the consent banner on an earlier visit: it does not cover the page.
      await context.addCookies([{ name: CONSENT_COOKIE, value: 'denied', url: BASE_URL }]);
    });

    test('the real-time card refreshes on its own while the page is visible, never while it is hidden', async ({
      page,
      browser,
    }) => {
      await signUp(page, lang);
      const generated = await page.request.post('/api/fn/generateReferralCode', {
        headers: { origin: BASE_URL },
        data: { data: { description: null } },
      });
      const { code } = ((await generated.json()) as { result: { code: string } }).result;
      // The page's asks for the figure, counted where they are made, and its answers once the page has
      // read them (when the response's body is parsed, not when its headers arrive: until then the card
      // is still busy with that ask, and skips an interval that falls meanwhile).
      await page.addInitScript(() => {
        const counted = window as unknown as { activeVisitorAsks: number; activeVisitorAnswers: number };
        counted.activeVisitorAsks = 0;
        counted.activeVisitorAnswers = 0;
        const original = window.fetch.bind(window);
        window.fetch = (input, init) => {
          const answer = original(input, init);
          if (String(input instanceof Request ? input.url : input).endsWith('/api/fn/getActiveVisitors')) {
            counted.activeVisitorAsks += 1;
            void answer.then(
              (response) => {
                const read = response.json.bind(response);
                response.json = () => read().finally(() => (counted.activeVisitorAnswers += 1));
              },
              () => (counted.activeVisitorAnswers += 1),
            );
          }
          return answer;
        };
      });
      const asks = () => page.evaluate(() => (window as unknown as { activeVisitorAsks: number }).activeVisitorAsks);
      const answers = () =>
        page.evaluate(() => (window as unknown as { activeVisitorAnswers: number }).activeVisitorAnswers);
      const setVisibility = (state: 'visible' | 'hidden') =>
        page.evaluate((value) => {
          Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => value });
          document.dispatchEvent(new Event('visibilitychange'));
        }, state);
      // The page's clock runs on its own while the dashboard loads, then stops: the test moves it.
      await page.clock.install();
      await openDashboard(page, lang);
      const live = page.getByRole('region', { name: s.overview.live.title });
      const count = live.getByRole('strong');
      await expect(count).toHaveText('0');
      await expect(live.getByText(fill(s.overview.live.auto, { seconds: 30 }))).toBeVisible();

      // Someone opens the affiliate's link (a person's browser, not a bot).
      const visitor = await browser.newContext({ ...DEVICES.desktop, locale: LOCALES[lang] });
      const landing = await visitor.newPage();
      const recorded = landing.waitForResponse((response) => response.url().endsWith('/api/fn/storePreInstallData'));
      await landing.goto(`/ref/${code}`);
      expect((await recorded).status()).toBe(200);
      await visitor.close();

      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
      const before = await asks();
      // One interval: the card asks once, by itself, and shows the visitor (the page's updates wait
      // on its timers: the clock moves a millisecond at a time until they are shown).
      await page.clock.runFor(30_000);
      await expect(async () => {
        await page.clock.runFor(1);
        await expect(count).toHaveText('1', { timeout: 100 });
      }).toPass();
      expect(await asks()).toBe(before + 1);

      // Hidden (another tab, the screen off): no ask, however long.
      await setVisibility('hidden');
      await page.clock.runFor(10 * 60_000);
      expect(await asks()).toBe(before + 1);
      // Back: the figure is stale, so it is asked for at once, then every interval again.
      await setVisibility('visible');
      await expect.poll(asks).toBe(before + 2);
      // Its answer is in before the next interval: one ask at a time, so the test waits for it.
      await expect.poll(answers).toBe(before + 2);
      await page.clock.runFor(30_000);
      await expect.poll(asks).toBe(before + 3);
      await page.clock.resume();
      await expect(live.getByRole('button', { name: s.overview.live.refresh })).toBeEnabled();
    });

    test('header, tabs by mouse and keyboard, and the overview of a new account', async ({ page }) => {
      const health = await watchPageHealth(page);
      const account = await signUp(page, lang);
      await openDashboard(page, lang);
      const main = page.getByRole('main');

      await expect(
        main.getByRole('heading', { level: 1, name: fill(s.header.welcomeNamed, { name: 'Ada' }) }),
      ).toBeVisible();
      await expect(main.getByText(fill(s.header.signedInAs, { email: account.email }))).toBeVisible();
      await expect(main.getByRole('button', { name: s.header.logout })).toBeVisible();

      // Overview is the default tab, and a new account shows zeros.
      const overviewTab = page.getByRole('tab', { name: s.tabs.overview });
      await expect(overviewTab).toHaveAttribute('aria-selected', 'true');
      const overview = page.getByRole('tabpanel', { name: s.tabs.overview });
      await expect(overview).toBeVisible();
      const zeroMoney = plain(new Intl.NumberFormat(lang, { style: 'currency', currency: 'USD' }).format(0));
      await expect(statValue(page, s.overview.stats.totalEarnings)).toHaveText(/\S/);
      expect(plain(await statValue(page, s.overview.stats.totalEarnings).textContent())).toBe(zeroMoney);
      expect(plain(await statValue(page, s.overview.stats.unpaidEarnings).textContent())).toBe(zeroMoney);
      await expect(statValue(page, s.overview.stats.totalConversions)).toHaveText('0');
      await expect(statValue(page, s.overview.stats.totalClicks)).toHaveText('0');
      expect(plain(await statValue(page, s.overview.stats.conversionRate).textContent())).toBe(
        lang === 'fr' ? '0,0 %' : '0.0%',
      );
      await expect(statValue(page, fill(s.overview.stats.last30Days, { days: 30 }))).toHaveText('0');

      // Real-time active users, refreshed on demand.
      const live = overview.getByRole('region', { name: s.overview.live.title });
      await expect(live.getByText(fill(s.overview.live.window, { minutes: 5 }))).toBeVisible();
      await live.getByRole('button', { name: s.overview.live.refresh }).click();
      await expect(live.getByRole('button', { name: s.overview.live.refresh })).toBeEnabled();
      await expect(live.getByRole('strong')).toHaveText('0');

      // The premium-rate progress of a new account.
      await expect(overview.getByRole('heading', { name: s.overview.premium.progressTitle })).toBeVisible();
      const progress = overview.getByRole('progressbar', { name: s.overview.premium.progressTitle });
      await expect(progress).toHaveAttribute('aria-valuenow', '0');
      await expect(progress).toHaveAttribute('aria-valuemax', '100');

      // The chart of the last 30 days, with its data as a table.
      const chartTitle = fill(s.overview.chart.title, { days: 30 });
      await expect(overview.getByRole('img', { name: chartTitle })).toBeVisible();
      await overview.getByText(s.overview.chart.showTable).click();
      await expect(overview.getByRole('table', { name: chartTitle }).getByRole('row')).toHaveCount(31);
      await expectNoAxeViolations(page, `overview (${lang})`);

      // Tabs by mouse, then by keyboard; the tab is kept in the URL across a reload.
      await page.getByRole('tab', { name: s.tabs.payments }).click();
      await expect(page.getByRole('tabpanel', { name: s.tabs.payments })).toBeVisible();
      await expect(page).toHaveURL(/#payments$/);
      await page.getByRole('tab', { name: s.tabs.payments }).press('ArrowRight');
      await expect(page.getByRole('tab', { name: s.tabs.settings })).toBeFocused();
      await expect(page.getByRole('tabpanel', { name: s.tabs.settings })).toBeVisible();
      await page.keyboard.press('ArrowRight');
      await expect(overviewTab).toBeFocused();
      await expect(overviewTab).toHaveAttribute('aria-selected', 'true');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      await expect(page.getByRole('tab', { name: s.tabs.links })).toHaveAttribute('aria-selected', 'true');
      await expect(page).toHaveURL(/#links$/);
      await page.reload();
      await expect(page.getByRole('tabpanel', { name: s.tabs.links })).toBeVisible();
      await expect(page.getByRole('tab', { name: s.tabs.links })).toHaveAttribute('aria-selected', 'true');

      expectHealthy(health, `dashboard overview (${lang})`);
    });

    test('links: the invitation to create the first one, codes up to the limit, the dash for no description, copy link', async ({
      page,
      context,
    }) => {
      const health = await watchPageHealth(page);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE_URL });
      await signUp(page, lang);
      await openDashboard(page, lang);

      // A new affiliate without a code is invited, on the overview, to create the first one.
      const firstTitle = s.links.first.title;
      const invitation = page.getByRole('region', { name: firstTitle });
      await expect(invitation.getByText(fill(s.links.first.text, { brand: 'Skanova' }))).toBeVisible();
      await expectNoAxeViolations(page, `overview, first link (${lang})`);
      await invitation.getByRole('button', { name: s.links.first.submit }).click();
      await expect(page).toHaveURL(/#links$/);
      const links = page.getByRole('tabpanel', { name: s.tabs.links });
      // The Links tab opens on the same invitation, its form ready to type in.
      const firstForm = links.getByRole('region', { name: firstTitle });
      await expect(firstForm.getByLabel(s.links.generate.description)).toBeFocused();
      await expect(links.getByText(`${BASE_URL}/download?ref=CODE`)).toBeVisible();
      await expectNoAxeViolations(page, `links, empty (${lang})`);

      const count = (used: number) => fill(s.links.generate.count, { used, max: MAX_REFERRAL_CODES });
      await expect(links.getByText(count(0))).toBeVisible();
      await links.getByLabel(s.links.generate.description).fill('Instagram bio');
      await firstForm.getByRole('button', { name: s.links.first.submit }).click();
      await expect(links.getByText(count(1))).toBeVisible();
      // With a link, the form is the ordinary one, and the overview invites no more.
      await expect(links.getByRole('region', { name: firstTitle })).toHaveCount(0);
      const generate = links.getByRole('button', { name: s.links.generate.submit });
      const table = links.getByRole('table');
      await expect(table.getByRole('row')).toHaveCount(2);
      await expect(links.getByLabel(s.links.generate.description)).toHaveValue('');
      for (let used = 2; used <= MAX_REFERRAL_CODES; used += 1) {
        await generate.click();
        await expect(links.getByText(count(used))).toBeVisible();
      }
      await expect(table.getByRole('row')).toHaveCount(MAX_REFERRAL_CODES + 1);
      await expect(generate).toBeDisabled();
      await expect(links.getByText(fill(s.links.limitReached, { max: MAX_REFERRAL_CODES }))).toBeVisible();

      // The code described above shows its description; the others a dash.
      const described = table.getByRole('row').filter({ hasText: 'Instagram bio' });
      await expect(described).toHaveCount(1);
      const bare = table.getByRole('row').filter({ hasNotText: 'Instagram bio' }).nth(1);
      await expect(bare.getByRole('cell').first()).toContainText('—');

      // Copy the link of the first code and read it back from the clipboard.
      const firstRow = table.getByRole('row').nth(1);
      const code = (await firstRow.getByRole('rowheader').textContent())!.trim();
      expect(code).toMatch(/^[A-Z0-9]{8}$/);
      await firstRow.getByRole('button', { name: `${s.links.table.copy} ${code}` }).click();
      await expect(links.getByRole('status').filter({ hasText: s.links.copied })).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${BASE_URL}/download?ref=${code}`);

      // The usage example and the QR widget use the first code; the QR and marketing pages are linked.
      await expect(links.getByText(`${BASE_URL}/download?ref=${code}`).first()).toBeVisible();
      await expect(links.getByRole('heading', { name: fill(s.links.qr.title, { code }) })).toBeVisible();
      await expect(links.getByRole('link', { name: s.links.more.qrcode })).toHaveAttribute('href', '/affiliate/qrcode');
      await expect(links.getByRole('link', { name: s.links.more.marketing })).toHaveAttribute(
        'href',
        '/affiliate/marketing',
      );
      await expectNoAxeViolations(page, `links, full (${lang})`);

      expectHealthy(health, `dashboard links (${lang})`);
    });

    test('payments: an invalid IBAN, then a valid one; no payout yet', async ({ page }) => {
      const health = await watchPageHealth(page);
      await signUp(page, lang);
      await openDashboard(page, lang, '#payments');
      const payments = page.getByRole('tabpanel', { name: s.tabs.payments });

      await expect(payments.getByText(s.payments.method.none)).toBeVisible();
      await expect(payments.getByText(s.payments.history.empty)).toBeVisible();
      const zeroMoney = plain(new Intl.NumberFormat(lang, { style: 'currency', currency: 'USD' }).format(0));
      await expect(payments.getByText(s.payments.next.amount)).toBeVisible();
      expect(plain(await payments.locator('.dashboard-amount strong').textContent())).toBe(zeroMoney);
      await expect(payments.getByText(s.payments.next.belowMinimum.split('{{')[0]!.trim())).toBeVisible();
      await expectNoAxeViolations(page, `payments (${lang})`);

      // The form offers PayPal and bank transfer only.
      await expect(payments.getByRole('radio')).toHaveCount(2);
      await payments.getByRole('radio', { name: payment.methods.bank_transfer }).check();
      await payments.getByLabel(payment.fields.accountHolder).fill('Ada Lovelace');
      await payments.getByLabel(payment.fields.bankName).fill('BNP Paribas');
      await payments.getByLabel(payment.fields.bic).fill(VALID_BIC);
      const iban = payments.getByLabel(payment.fields.bankIban);
      const save = payments.getByRole('button', { name: s.payments.update.submit });

      await iban.fill('FR76 3000 6000');
      await save.click();
      await expect(payments.getByRole('alert')).toHaveText(payment.errors['invalid-iban']);
      await expect(iban).toHaveAttribute('aria-invalid', 'true');

      // Editing clears the message; a wrong check digit has its own.
      await iban.fill('FR76 3000 6000 0112 3456 7890 180');
      await expect(payments.getByRole('alert')).toHaveCount(0);
      await save.click();
      await expect(payments.getByRole('alert')).toHaveText(payment.errors['invalid-iban-checksum']);

      await iban.fill(VALID_IBAN);
      await save.click();
      const success = payments.getByText(s.payments.update.success);
      await expect(success).toBeVisible();
      await expect(success).toBeInViewport();
      const summary = payments.getByRole('region', { name: s.payments.method.title });
      await expect(summary.getByText(payment.methods.bank_transfer)).toBeVisible();
      await expect(summary.getByText(VALID_BIC)).toBeVisible();
      const masked = summary.getByRole('definition').filter({ hasText: '•' });
      await expect(masked).toHaveCount(1);
      const maskedText = ((await masked.textContent()) ?? '').replace(/\s/g, '');
      expect(maskedText.endsWith('0189')).toBe(true);
      expect(maskedText).not.toContain('30006');
      // The IBAN is typed again for a change; the stored one is shown as a hint.
      await expect(iban).toHaveValue('');
      await expect(payments.getByText(s.payments.update.success)).toBeVisible();
      await expectNoAxeViolations(page, `payments, bank method (${lang})`);

      expectHealthy(health, `dashboard payments (${lang})`);
    });

    test('settings: notifications kept, password changed, logout and the protected redirect', async ({
      page,
      context,
    }) => {
      const health = await watchPageHealth(page);
      const account = await signUp(page, lang);
      await openDashboard(page, lang, '#settings');
      const settings = page.getByRole('tabpanel', { name: s.tabs.settings });

      await expect(settings.getByLabel(s.settings.account.email)).toHaveValue(account.email);
      await expect(settings.getByLabel(s.settings.account.email)).toBeDisabled();
      await expect(settings.getByRole('heading', { name: s.settings.delete.title })).toBeVisible();
      await expectNoAxeViolations(page, `settings (${lang})`);

      // Notification preferences: on by default, saved, kept across a reload.
      const news = settings.getByRole('checkbox', { name: s.settings.notifications.news });
      await expect(news).toBeChecked();
      await expect(settings.getByRole('checkbox', { name: s.settings.notifications.conversions })).toBeChecked();
      await news.uncheck();
      await settings.getByRole('button', { name: s.settings.notifications.submit }).click();
      await expect(settings.getByText(s.settings.notifications.saved)).toBeVisible();
      await page.reload();
      const reloaded = page.getByRole('tabpanel', { name: s.tabs.settings });
      await expect(reloaded.getByRole('checkbox', { name: s.settings.notifications.payments })).toBeChecked();
      await expect(reloaded.getByRole('checkbox', { name: s.settings.notifications.news })).not.toBeChecked();

      // Change password: a wrong current password has its own message; then it works.
      const newPassword = 'a brand new passphrase';
      const changeForm = reloaded.getByRole('region', { name: s.settings.password.title });
      await changeForm.getByLabel(s.settings.password.currentPassword).fill('not my password');
      await changeForm.getByLabel(s.settings.password.newPassword, { exact: true }).fill(newPassword);
      await changeForm.getByLabel(s.settings.password.confirmPassword).fill(newPassword);
      await changeForm.getByRole('button', { name: s.settings.password.submit }).click();
      await expect(changeForm.getByRole('alert')).toHaveText(s.settings.password.errors.wrongCurrent);
      await changeForm.getByLabel(s.settings.password.currentPassword).fill(account.password);
      await changeForm.getByRole('button', { name: s.settings.password.submit }).click();
      await expect(changeForm.getByText(s.settings.password.success)).toBeVisible();

      // Logout goes to the login page, and the dashboard sends a signed-out visitor there.
      await page.getByRole('main').getByRole('button', { name: s.header.logout }).click();
      await expect(page).toHaveURL(/\/affiliate\/login/);
      await page.goto('/affiliate/dashboard');
      await expect(page).toHaveURL(/\/affiliate\/login/);

      // Only the new password signs in now, through the login page.
      expect(await signInStatus(context, account.email, account.password)).not.toBe(200);
      await logIn(page, { email: account.email, password: newPassword }, lang);
      await expect(page.getByRole('main').getByText(fill(s.header.signedInAs, { email: account.email }))).toBeVisible();

      ignoreExpectedRefusals(health, [400, 401]);
      expectHealthy(health, `dashboard settings (${lang})`);
    });

    test('settings: deleting an account without a balance, confirmed by its password', async ({ page, context }) => {
      const health = await watchPageHealth(page);
      const account = await signUp(page, lang);
      await openDashboard(page, lang, '#settings');
      const danger = page.getByRole('region', { name: s.settings.delete.title });

      await danger.getByRole('button', { name: s.settings.delete.start }).click();
      const password = danger.getByLabel(s.settings.delete.password);
      await expect(password).toBeFocused();
      await danger.getByRole('button', { name: s.settings.delete.cancel }).click();
      await expect(danger.getByRole('button', { name: s.settings.delete.start })).toBeFocused();

      await danger.getByRole('button', { name: s.settings.delete.start }).click();
      await password.fill('not my password');
      await danger.getByRole('button', { name: s.settings.delete.confirm }).click();
      await expect(danger.getByRole('alert')).toHaveText(s.settings.delete.errors.wrongPassword);
      await expectNoAxeViolations(page, `delete confirmation (${lang})`);

      await password.fill(account.password);
      await danger.getByRole('button', { name: s.settings.delete.confirm }).click();
      await expect(page.getByRole('heading', { level: 1, name: s.settings.delete.doneTitle })).toBeVisible();
      await expect(page.getByText(s.settings.delete.done)).toBeVisible();
      expect(await signInStatus(context, account.email, account.password)).not.toBe(200);

      await page.getByRole('link', { name: s.settings.delete.toHome }).click();
      await expect(page).toHaveURL(/\/affiliate$/);
      await page.goto('/affiliate/dashboard');
      await expect(page).toHaveURL(/\/affiliate\/login/);

      ignoreExpectedRefusals(health, [401, 403]);
      expectHealthy(health, `account deletion (${lang})`);
    });
  });
}
