import { readFile } from 'node:fs/promises';
import { type Browser, type BrowserContextOptions, type Locator, type Page, expect, test } from '@playwright/test';
import { BANNER_SIZES, type BannerSize } from '@skanova/shared/marketing/constants';
import { BASE_URL } from '../playwright.config';
import { signUpViaApi } from './helpers/affiliate';
import { DEVICES } from './helpers/devices';
import { type Lang, strings } from './helpers/i18n';
import { waitForAnimations } from './helpers/page-health';

// What a new user meets first, on a 375 px phone (and at 1280 px where it matters), in both
// languages (docs/product/routes-and-screens.md#public-header-and-footer, docs/product/routes-and-screens.md#referral-landing): the footer's support address, the referral landing with the consent
// banner showing, signup's payment step, the support page's contact block and the page titles,
// the payment history, and the marketing banners' PNG downloads.

const LANGS = ['fr', 'en'] as const;
const LOCALES: Record<Lang, string> = { fr: 'fr-FR', en: 'en-US' };
const PHONE = { width: 375, height: 667 };
const DESKTOP = { width: 1280, height: 800 };
const BRAND = 'Skanova';
const SAME_ORIGIN = { origin: BASE_URL, 'content-type': 'application/json' };

const fill = (template: string, values: Record<string, string | number> = {}) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key] ?? (key === 'brand' ? BRAND : '')));

/** A context in a language; `answered` = the visitor answered the consent banner on an earlier visit. */
async function open(
  browser: Browser,
  lang: Lang,
  options: BrowserContextOptions & { answered?: boolean } = {},
): Promise<Page> {
  const { answered = false, ...contextOptions } = options;
  const context = await browser.newContext({ viewport: PHONE, locale: LOCALES[lang], ...contextOptions });
  if (answered) await context.addCookies([{ name: 'consent', value: 'denied', url: BASE_URL }]);
  return context.newPage();
}

/** Elements in `scope` that reach past the viewport's sides (the page never scrolls sideways). */
async function widerThanViewport(page: Page, scope: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    for (const root of document.querySelectorAll(selector)) {
      for (const element of [root, ...root.querySelectorAll('*')]) {
        // Inside a drawing, the <svg> box is what shows (its shapes may run past it, clipped).
        if (element.parentElement?.closest('svg')) continue;
        const box = element.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue;
        if (box.left < -0.5 || box.right > width + 0.5)
          found.push(`${element.tagName.toLowerCase()}.${element.className} ${box.left}–${box.right}`);
      }
    }
    if (document.documentElement.scrollWidth > width)
      found.push(`page scrolls to ${document.documentElement.scrollWidth}`);
    return found;
  }, scope);
}

/** How many lines a piece of text takes: distinct tops of its line boxes. */
function lineCount(locator: Locator): Promise<number> {
  return locator.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)))
      .size;
  });
}

/** Whether what a person taps at the centre of `locator` is that element (not something drawn over it). */
function isOnTop(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit !== null && (hit === element || element.contains(hit));
  });
}

for (const lang of LANGS) {
  test.describe(`small screens (${lang})`, () => {
    const common = strings(lang);

    test(`the footer's support address stays on one line at 375 px (${lang})`, async ({ browser }) => {
      const page = await open(browser, lang, { answered: true });
      await page.goto(`/?lang=${lang}`);
      const footer = page.getByRole('contentinfo');
      const address = footer.getByRole('link', { name: 'support@skanova.com' });
      await expect(address).toHaveAttribute('href', 'mailto:support@skanova.com');
      await address.scrollIntoViewIfNeeded();
      expect(await lineCount(address)).toBe(1);
      const box = await address.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
      expect(await widerThanViewport(page, 'footer')).toEqual([]);
      await page.context().close();
    });

    test(`the referral landing on a phone: the consent bar leaves "Open the app" free, and the site's logo (${lang})`, async ({
      browser,
    }) => {
      const landing = strings(lang, 'landing');
      const page = await open(browser, lang, { ...DEVICES.iphone, viewport: PHONE, screen: PHONE });
      // The store fallback must not leave the page while it is measured: time stands still.
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 1000);
      await page.goto(`/download?ref=K7M2QX4P&lang=${lang}`);
      const openApp = page.getByRole('button', { name: landing.openApp });
      const banner = page.getByRole('region', { name: common.consent.title });
      await expect(openApp).toBeVisible();
      await expect(banner).toBeVisible();
      await expect(banner.getByRole('link', { name: common.consent.policy })).toBeVisible();
      await waitForAnimations(page);

      expect(await isOnTop(openApp)).toBe(true);
      const button = (await openApp.boundingBox())!;
      const bar = (await banner.boundingBox())!;
      expect(button.y + button.height, 'the bar starts below the button').toBeLessThan(bar.y);
      for (const answer of [common.consent.refuse, common.consent.accept])
        expect(await isOnTop(banner.getByRole('button', { name: answer }))).toBe(true);
      expect(await widerThanViewport(page, 'body')).toEqual([]);

      // The logo is the public header's: the same mark drawn by the same style.
      const mark = (link: Locator) => link.evaluate((element) => getComputedStyle(element, '::before').backgroundImage);
      const landingMark = await mark(page.getByRole('banner').getByRole('link', { name: BRAND }));
      await page.context().close();

      const home = await open(browser, lang, { answered: true });
      await home.goto(`/?lang=${lang}`);
      const headerMark = await mark(home.getByRole('banner').getByRole('link', { name: BRAND }));
      expect(headerMark).toContain('gradient');
      expect(landingMark).toBe(headerMark);
      await home.context().close();
    });

    test(`the referral landing on a computer: the two store buttons have one size (${lang})`, async ({ browser }) => {
      const common = strings(lang);
      const page = await open(browser, lang, { ...DEVICES.desktop, viewport: DESKTOP, answered: true });
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 1000);
      await page.goto(`/download?ref=K7M2QX4P&lang=${lang}`);
      await expect(page.locator('.landing__status')).not.toBeEmpty();
      // Read until the page has settled (the desktop section and its QR codes come in after the status).
      await expect(async () => {
        const appStore = (await page.getByRole('link', { name: common.storeBadge.appStore.label }).boundingBox())!;
        const googlePlay = (await page.getByRole('link', { name: common.storeBadge.googlePlay.label }).boundingBox())!;
        expect(Math.abs(appStore.width - googlePlay.width)).toBeLessThanOrEqual(1);
        expect(Math.abs(appStore.height - googlePlay.height)).toBeLessThanOrEqual(1);
        expect(appStore.y).toBeCloseTo(googlePlay.y, 0);
      }).toPass();
      await page.context().close();
    });

    test(`signup step 3 at 375 px: choosing another payment method clears the other method's error (${lang})`, async ({
      browser,
    }) => {
      const auth = strings(lang, 'auth');
      const payment = strings(lang, 'payment');
      const page = await open(browser, lang, { answered: true });
      await page.goto(`/affiliate/signup?lang=${lang}`);
      const field = (label: string) => page.getByLabel(label, { exact: true });
      const next = page.getByRole('button', { name: auth.signup.next, exact: true });
      await expect(next).toBeEnabled();
      await field(auth.fields.email).fill(`small-screen-${lang}-${Date.now()}@example.com`);
      await field(auth.fields.password).fill('correct-horse-1');
      await field(auth.fields.confirmPassword).fill('correct-horse-1');
      await next.click();
      await field(auth.fields.firstName).fill('Ana');
      await field(auth.fields.lastName).fill('Martin');
      await next.click();

      await page.getByRole('radio', { name: payment.methods.bank_transfer }).check();
      await page.getByRole('button', { name: auth.signup.submit, exact: true }).click();
      const alert = page.getByRole('alert');
      await expect(alert).toContainText(payment.errors['bank-details-required'].split('{{')[0].trim());
      await expect(field(payment.fields.bankIban)).toHaveAttribute('aria-invalid', 'true');
      expect(await widerThanViewport(page, 'main')).toEqual([]);

      // Shown with the bank's, at once: the terms' message, which has nothing to do with the method.
      await expect(alert.getByRole('listitem')).toHaveCount(2);
      await page.getByRole('radio', { name: payment.methods.paypal }).check();
      await expect(alert).toHaveText(auth.errors.termsRequired);
      await expect(field(payment.fields.paypalEmail)).not.toHaveAttribute('aria-invalid', 'true');
      await field(payment.fields.paypalEmail).fill('ana@paypal.example.com');
      await page.getByRole('button', { name: auth.signup.submit, exact: true }).click();
      await expect(alert).toHaveText(auth.errors.termsRequired);
      await page.getByRole('radio', { name: payment.methods.later }).check();
      await expect(alert).toHaveText(auth.errors.termsRequired);
      expect(await widerThanViewport(page, 'main')).toEqual([]);
      await page.context().close();
    });

    for (const configured of ['e-mail only', 'e-mail, chat and phone'] as const) {
      test(`support with ${configured}: a balanced contact block at 375 and 1280 px (${lang})`, async ({ browser }) => {
        const support = strings(lang, 'support');
        const page = await open(browser, lang, { answered: true });
        if (configured === 'e-mail only') {
          // The test server sets a phone and a chat address; this visitor's page has neither, as by default.
          await page.route(/\/support(\?|$)/, async (route) => {
            const response = await route.fetch();
            const body = (await response.text())
              .replace(/"supportPhone":"[^"]*"/, '"supportPhone":null')
              .replace(/"liveChatUrl":"[^"]*"/, '"liveChatUrl":null');
            await route.fulfill({ response, body });
          });
        }
        await page.goto(`/support?lang=${lang}`);
        const contact = page.locator('#contact');
        const cards = contact.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) });
        const form = page.getByRole('form', { name: support.form.title });
        await expect(contact.getByRole('link', { name: 'support@skanova.com' })).toBeVisible();
        await expect(cards).toHaveCount(configured === 'e-mail only' ? 1 : 3);
        await expect(form).toBeVisible();

        // Phone: one column, the ways to reach support above the form, nothing sideways.
        const emailCard = (await cards.first().boundingBox())!;
        let formBox = (await form.boundingBox())!;
        expect(emailCard.y + emailCard.height).toBeLessThan(formBox.y);
        expect(await widerThanViewport(page, 'main')).toEqual([]);

        // Computer: the ways to reach support in a column beside the form, their tops aligned.
        await page.setViewportSize(DESKTOP);
        const email = (await cards.first().boundingBox())!;
        const last = (await cards.last().boundingBox())!;
        formBox = (await form.boundingBox())!;
        expect(email.x + email.width, 'the cards sit left of the form').toBeLessThan(formBox.x);
        expect(Math.abs(email.y - formBox.y)).toBeLessThanOrEqual(1);
        expect(email.width, 'a lone e-mail card does not stretch across the page').toBeLessThan(formBox.width);
        expect(last.x).toBeCloseTo(email.x, 0);
        expect(await widerThanViewport(page, 'main')).toEqual([]);
        await page.context().close();
      });
    }

    test(`privacy, GDPR and support titles follow "Page — brand" like the other pages (${lang})`, async ({
      browser,
    }) => {
      const page = await open(browser, lang, { answered: true });
      for (const [path, namespace] of [
        ['/terms', 'terms'],
        ['/privacy', 'privacy'],
        ['/rgpd', 'rgpd'],
        ['/support', 'support'],
      ] as const) {
        await page.goto(`${path}?lang=${lang}`);
        const title = fill(strings(lang, namespace).meta.title);
        expect(title).toMatch(new RegExp(`^[^—]+ — ${BRAND}$`));
        await expect(page).toHaveTitle(title);
      }
      await page.context().close();
    });

    test(`the payment history at 375 px: the payday and the day sent or paid, as two facts (${lang})`, async ({
      browser,
    }) => {
      const dashboard = strings(lang, 'dashboard');
      const paymentStrings = strings(lang, 'payment');
      const page = await open(browser, lang, { answered: true });
      await signUpViaApi(page, { language: lang });
      // Payouts need months of history: the answer is given here, as the server would give it.
      await page.route('**/api/fn/getAffiliatePayouts', (route) =>
        route.fulfill({
          contentType: 'application/json',
          body: JSON.stringify({
            result: {
              payouts: [
                {
                  id: 'p3',
                  periodStart: '2025-05-01',
                  periodEnd: '2025-05-31',
                  amountCents: 2550,
                  currency: 'USD',
                  method: 'bank_transfer',
                  status: 'scheduled',
                  scheduledFor: '2025-06-15',
                  paidAt: null,
                },
                {
                  id: 'p2',
                  periodStart: '2025-04-01',
                  periodEnd: '2025-04-30',
                  amountCents: 4000,
                  currency: 'USD',
                  method: 'paypal',
                  status: 'paid',
                  scheduledFor: '2025-05-15',
                  sentAt: '2025-05-15T14:00:00.000Z',
                  paidAt: '2025-05-17T09:00:00.000Z',
                },
                {
                  // A SEPA transfer: earned in dollars, paid in euros.
                  id: 'p1',
                  periodStart: '2025-03-01',
                  periodEnd: '2025-03-31',
                  amountCents: 3000,
                  currency: 'USD',
                  amountPaidCents: 2760,
                  paidCurrency: 'EUR',
                  method: 'bank_transfer',
                  status: 'sent',
                  scheduledFor: '2025-04-15',
                  sentAt: '2025-04-15T08:00:00.000Z',
                  paidAt: null,
                },
              ],
            },
          }),
        }),
      );
      await page.goto(`/affiliate/dashboard?lang=${lang}`);
      await page.getByRole('tab', { name: dashboard.tabs.payments }).click();
      const history = page.getByRole('region', { name: dashboard.payments.history.title });
      const rows = history.getByRole('row');
      await expect(rows).toHaveCount(4);
      const day = (iso: string) =>
        new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
          new Date(`${iso}T00:00:00Z`),
        );
      const paid = rows.nth(2).getByRole('cell');
      await expect(paid.nth(0)).toHaveText(day('2025-05-15'));
      await expect(paid.nth(1)).toHaveText(day('2025-05-17'));
      await expect(paid.nth(4)).toHaveText(paymentStrings.methods.paypal);
      await expect(paid.nth(5)).toHaveText(dashboard.payments.history.statuses.paid);
      const scheduled = rows.nth(1).getByRole('cell');
      await expect(scheduled.nth(0)).toHaveText(day('2025-06-15'));
      await expect(scheduled.nth(1)).toHaveText(`—${dashboard.payments.history.notYet}`);
      const money = (amount: number, currency: string) =>
        new Intl.NumberFormat(lang, { style: 'currency', currency }).format(amount);
      const sepa = rows.nth(3).getByRole('cell');
      await expect(sepa.nth(3)).toHaveText(
        `${money(30, 'USD')}${dashboard.payments.history.paidAs.replace('{{paid}}', money(27.6, 'EUR'))}`,
      );

      // Each payout is a card of labelled lines inside the screen: nothing scrolls sideways.
      for (const index of [2, 3]) {
        const card = (await rows.nth(index).boundingBox())!;
        expect(card.x).toBeGreaterThanOrEqual(0);
        expect(card.x + card.width).toBeLessThanOrEqual(PHONE.width);
      }
      const label = await paid
        .nth(0)
        .evaluate((cell) => getComputedStyle(cell, '::before').content.replace(/^"|"(\s*\/.*)?$/g, ''));
      expect(label).toBe(dashboard.payments.history.payday);
      expect(await widerThanViewport(page, 'section[aria-labelledby="dashboard-history-title"]')).toEqual([]);
      await page.context().close();
    });

    test(`marketing banners at 375 px, and each PNG also at 2× for high-density screens (${lang})`, async ({
      browser,
    }) => {
      const marketing = strings(lang, 'marketing');
      const page = await open(browser, lang, { answered: true, acceptDownloads: true });
      await signUpViaApi(page, { language: lang });
      const made = await page.request.post('/api/fn/generateReferralCode', {
        headers: SAME_ORIGIN,
        data: { data: { description: null } },
      });
      expect(made.status()).toBe(200);
      const code = ((await made.json()) as { result: { code: string } }).result.code;
      await page.goto(`/affiliate/marketing?lang=${lang}`);
      await expect(page.getByLabel(marketing.codes.label)).toHaveValue(code);
      const section = page.getByRole('region', { name: marketing.banners.title });
      const double = section.getByRole('button', { name: marketing.banners.downloadPng2x });
      await expect(double).toBeVisible();
      expect(await widerThanViewport(page, 'main')).toEqual([]);

      for (const size of Object.keys(BANNER_SIZES) as BannerSize[]) {
        await section.getByLabel(marketing.banners.size).selectOption(size);
        const [download] = await Promise.all([page.waitForEvent('download'), double.click()]);
        expect(download.suggestedFilename()).toBe(`banner-${code}-${size}-purple@2x.png`);
        const bytes = await readFile(await download.path());
        const { width, height } = BANNER_SIZES[size];
        expect({ width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }, size).toEqual({
          width: 2 * width,
          height: 2 * height,
        });
      }
      await page.context().close();
    });
  });
}
