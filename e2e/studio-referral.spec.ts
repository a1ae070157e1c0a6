import { type Page, expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './helpers/axe';
import { type Lang, strings } from './helpers/i18n';
import { answerCookieBanner, expectPrivate, recordRequests } from './helpers/studio';

// Referral continuity (docs/product/web-app.md#referral-continuity): a visitor who came through an affiliate's link — `?ref=CODE` on
// the site or the app, or the referral landing itself — and later asks the web app for the mobile app
// goes through the referral landing with that code, so that the install is credited. Without a
// referral, the app's badges go to the stores, as the site's do.

const CODE = 'K7M2QX4P';

/** The app's "get the mobile app" card. */
const getAppCard = (page: Page, lang: Lang) => page.getByRole('region', { name: strings(lang, 'studio').getApp.title });

/** Follows the app's "get the mobile app" and checks the referral landing records the visit with `code`. */
async function followToLanding(page: Page, lang: Lang, code: string) {
  const recorded = page.waitForRequest((request) => request.url().endsWith('/api/fn/storePreInstallData'));
  await getAppCard(page, lang)
    .getByRole('link', { name: strings(lang, 'studio').getApp.action })
    .click();
  await expect(page).toHaveURL(new RegExp(`/download\\?type=ref&ref=${code}$`));
  await expect(page.getByText(strings(lang, 'landing').invited.replace('{{code}}', code))).toBeVisible();
  const body = (await recorded).postDataJSON() as { data: { deeplink: { type: string; code: string } } };
  expect(body.data.deeplink).toMatchObject({ type: 'ref', code });
}

test('fr, phone: ?ref= on the site → "Commencer dans le navigateur" → the app → "get the mobile app" → the referral landing with that code', async ({
  browser,
}) => {
  const lang = 'fr';
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, locale: 'fr-FR' });
  await answerCookieBanner(context);
  const requests = recordRequests(context);
  const page = await context.newPage();
  await page.goto(`/?lang=fr&ref=${CODE.toLowerCase()}`);
  await page.getByRole('link', { name: strings(lang, 'home').hero.getStarted }).click();
  await expect(page).toHaveURL(/\/studio$/);
  // Before consent already: wanting the mobile app needs no consent to the web app's analysis.
  await expect(page.getByRole('heading', { level: 1, name: strings(lang, 'studio').consent.title })).toBeVisible();
  await expect(getAppCard(page, lang).getByText(CODE)).toBeVisible();
  await expectNoAxeViolations(page, 'app home with a referral (fr)');
  await followToLanding(page, lang, CODE);
  expectPrivate(requests);
  await context.close();
});

test('en, desktop: the referral landing → the site → the app, after consent → "Get the mobile app" keeps the code', async ({
  browser,
}) => {
  const lang = 'en';
  const t = strings(lang, 'studio');
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
  await answerCookieBanner(context);
  const requests = recordRequests(context);
  const page = await context.newPage();
  const firstVisit = page.waitForResponse((response) => response.url().endsWith('/api/fn/storePreInstallData'));
  await page.goto(`/ref/${CODE}?lang=en`);
  await expect(page.getByText(strings(lang, 'landing').invited.replace('{{code}}', CODE))).toBeVisible();
  expect((await firstVisit).status()).toBe(200);

  // Two pages later (the landing's logo → the home page → "Get started"), the address has no code left.
  await page.getByRole('link', { name: 'Skanova' }).first().click();
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole('link', { name: strings(lang, 'home').hero.getStarted }).click();
  await page.getByRole('checkbox', { name: t.consent.ageLabel }).check();
  await page.getByRole('checkbox', { name: t.consent.consentLabel }).check();
  await page.getByRole('button', { name: t.consent.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: t.home.title })).toBeVisible();

  // "Your data" offers it too, with the same code.
  await page
    .getByRole('navigation', { name: t.layout.nav.label })
    .getByRole('link', { name: t.layout.nav.data })
    .click();
  await expect(getAppCard(page, lang).getByRole('link', { name: t.getApp.action })).toHaveAttribute(
    'href',
    `/app/ref/${CODE}`,
  );
  await followToLanding(page, lang, CODE);
  expectPrivate(requests);
  await context.close();
});

test('fr, 375 px: the referral landing’s “Ouvrir l’application web” → the app keeps the code → back through the landing', async ({
  browser,
}) => {
  const lang = 'fr';
  const landing = strings(lang, 'landing');
  // A computer's browser at a phone's width: the landing never leaves for a store on its own.
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, locale: 'fr-FR' });
  await answerCookieBanner(context);
  const requests = recordRequests(context);
  const page = await context.newPage();
  await page.goto(`/ref/${CODE}?lang=fr`);
  await expect(page.getByText(landing.invited.replace('{{code}}', CODE))).toBeVisible();
  await page.getByRole('link', { name: landing.web.action }).click();
  await expect(page).toHaveURL(new RegExp(`/studio\\?ref=${CODE}$`));
  await expect(page.getByRole('heading', { level: 1, name: strings(lang, 'studio').consent.title })).toBeVisible();
  await expect(getAppCard(page, lang).getByText(CODE)).toBeVisible();
  await followToLanding(page, lang, CODE);
  expectPrivate(requests);
  await context.close();
});

test('en, phone: ?ref= on a page of the app that first needs consent is kept through the redirection', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, locale: 'en-GB' });
  await answerCookieBanner(context);
  const page = await context.newPage();
  await page.goto('/studio/journal?lang=en&ref=AB12CD34');
  await expect(page).toHaveURL(/\/studio$/);
  await followToLanding(page, 'en', 'AB12CD34');
  await context.close();
});

test('without a referral, the app’s badges go to the stores the site links to', async ({ browser }) => {
  const lang = 'en';
  const t = strings(lang, 'studio');
  const context = await browser.newContext({ locale: 'en-GB' });
  await answerCookieBanner(context);
  const requests = recordRequests(context);
  const page = await context.newPage();
  await page.goto('/?lang=en');
  const common = strings(lang);
  const siteAppStore = await page
    .getByRole('link', { name: common.storeBadge.appStore.label })
    .first()
    .getAttribute('href');
  const sitePlay = await page
    .getByRole('link', { name: common.storeBadge.googlePlay.label })
    .first()
    .getAttribute('href');
  await page.goto('/studio');
  const card = getAppCard(page, lang);
  await expect(card.getByRole('link', { name: t.getApp.appStore })).toHaveAttribute('href', siteAppStore ?? '');
  await expect(card.getByRole('link', { name: t.getApp.googlePlay })).toHaveAttribute('href', sitePlay ?? '');
  await expect(card.getByRole('link', { name: t.getApp.action })).toHaveCount(0);
  expectPrivate(requests);
  await context.close();
});
