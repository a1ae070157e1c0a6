import { type Page, expect, test } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { CONSENT_COOKIE, LANGUAGE_COOKIE } from '../packages/shared/src/site/constants';
import { HEADER_OPAQUE_SCROLL_PX } from '../packages/shared/src/site/timing';
import { strings } from './helpers/i18n';
import { waitForAnimations } from './helpers/page-health';

// The public site's shell and home page: languages, header, mobile menu, footer, layout widths and
// the company pages, in both languages.

const HOME = {
  fr: { h1: 'Comprenez votre peau en un selfie', title: /analyse de peau par IA/, toggle: 'Switch to English' },
  en: {
    h1: 'Understand your skin in one selfie',
    title: /AI skin analysis from a selfie/,
    toggle: 'Passer en français',
  },
};

const COMPANY_PAGES = [
  { path: '/about', fr: 'À propos de', en: 'About' },
  { path: '/careers', fr: 'Carrières chez', en: 'Careers at' },
  { path: '/press', fr: 'Presse', en: 'Press' },
  { path: '/blog', fr: 'Blog', en: 'Blog' },
];

/** Records uncaught errors and console errors (CSP violations, hydration mismatches) of a page. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

test.beforeEach(async ({ context, baseURL }) => {
  // The visitor has already answered the consent banner, so it does not cover the page.
  await context.addCookies([{ name: CONSENT_COOKIE, value: 'denied', url: baseURL! }]);
});

test.describe('languages', () => {
  test('the home page is in French for a French browser', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(HOME.fr.h1);
    await expect(page).toHaveTitle(HOME.fr.title);
  });

  test('the home page is in English for an English browser', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ locale: 'en-US', baseURL });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(HOME.en.h1);
    await expect(page).toHaveTitle(HOME.en.title);
    await context.close();
  });

  test('?lang=en serves English to a French browser', async ({ page }) => {
    await page.goto('/?lang=en');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(HOME.en.h1);
  });

  test('the toggle switches the language, the title and <html lang>, and the choice survives a reload', async ({
    page,
    context,
  }) => {
    await page.goto('/');
    await page.getByRole('button', { name: HOME.fr.toggle }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(HOME.en.h1);
    await expect(page).toHaveTitle(HOME.en.title);
    await expect(
      page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Privacy' }),
    ).toBeAttached();
    expect((await context.cookies()).find((cookie) => cookie.name === LANGUAGE_COOKIE)?.value).toBe('en');

    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(HOME.en.h1);

    await page.getByRole('button', { name: HOME.en.toggle }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(page).toHaveTitle(HOME.fr.title);
  });
});

test.describe('header', () => {
  test('has the spec links, the App button and marks the current page', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Navigation principale' });
    const expected: [string, string][] = [
      ['Accueil', '/'],
      ['Affiliation', '/affiliate'],
      ['Conditions', '/terms'],
      ['Confidentialité', '/privacy'],
      ['CLUF', '/eula'],
      ['RGPD', '/rgpd'],
      ['Support', '/support'],
    ];
    for (const [name, href] of expected)
      await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    await expect(nav.getByRole('link', { name: 'Accueil' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('banner').getByRole('link', { name: 'App', exact: true })).toHaveAttribute(
      'href',
      /^https?:\/\//,
    );

    await nav.getByRole('link', { name: 'Conditions' }).click();
    await expect(page).toHaveURL(/\/terms$/);
    await expect(nav.getByRole('link', { name: 'Conditions' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Accueil' })).not.toHaveAttribute('aria-current', 'page');
  });

  test('is transparent at the top and opaque once scrolled past the threshold', async ({ page }) => {
    await page.goto('/');
    const header = page.getByRole('banner');
    await expect(header).not.toHaveClass(/site-header--opaque/);
    expect(await header.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgba(0, 0, 0, 0)');

    await page.evaluate((y) => window.scrollTo(0, y), HEADER_OPAQUE_SCROLL_PX + 150);
    await expect(header).toHaveClass(/site-header--opaque/);
    await expect
      .poll(() => header.evaluate((element) => getComputedStyle(element).backgroundColor))
      .toBe('rgb(255, 255, 255)');

    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(header).not.toHaveClass(/site-header--opaque/);
  });

  test('the skip link appears on focus and leads to the main content', async ({ page }) => {
    await page.goto('/');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Aller au contenu' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await skip.press('Enter');
    await expect(page).toHaveURL(/#main$/);
  });
});

test.describe('mobile menu', () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test('opens, closes on a link click and on Escape', async ({ page }) => {
    await page.goto('/');
    const menuButton = page.getByRole('button', { name: 'Ouvrir le menu' });
    const nav = page.getByRole('navigation', { name: 'Navigation principale' });
    await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
    await expect(nav.getByRole('link', { name: 'Confidentialité' })).toBeHidden();

    await menuButton.click();
    const closeButton = page.getByRole('button', { name: 'Fermer le menu' });
    await expect(closeButton).toHaveAttribute('aria-expanded', 'true');
    await expect(nav.getByRole('link', { name: 'Confidentialité' })).toBeVisible();

    await nav.getByRole('link', { name: 'Confidentialité' }).click();
    await expect(page).toHaveURL(/\/privacy$/);
    await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
    await expect(nav.getByRole('link', { name: 'Support' })).toBeHidden();

    await menuButton.click();
    await expect(nav.getByRole('link', { name: 'Support' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
    await expect(menuButton).toBeFocused();
    await expect(nav.getByRole('link', { name: 'Support' })).toBeHidden();
  });
});

test.describe('footer', () => {
  test('has the links, social and store links, the year and the medical notice', async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    for (const network of ['Instagram', 'Twitter', 'Facebook', 'LinkedIn']) {
      await expect(footer.getByRole('link', { name: new RegExp(`sur ${network}$`) })).toHaveAttribute(
        'href',
        /^https:\/\//,
      );
    }
    await expect(footer.getByRole('link', { name: "Télécharger dans l'App Store" })).toHaveAttribute(
      'href',
      /apps\.apple\.com/,
    );
    await expect(footer.getByRole('link', { name: 'Disponible sur Google Play' })).toHaveAttribute(
      'href',
      /play\.google\.com/,
    );
    const links: [string, string | RegExp][] = [
      ['FAQ', '/support#faq'],
      ['Nous contacter', '/support#contact'],
      ['À propos', '/about'],
      ['Carrières', '/careers'],
      ['Presse', '/press'],
      ['Blog', '/blog'],
      ['RGPD', '/rgpd'],
      ['Affiliation', '/affiliate'],
    ];
    for (const [name, href] of links)
      await expect(footer.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    await expect(footer.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:.+@/);
    await expect(footer).toContainText(`© ${new Date().getFullYear()} `);
    await expect(footer).toContainText("n'est pas un dispositif médical");
  });
});

test.describe('home page', () => {
  test('has the hero, three features with the six zones, three steps, three testimonials and the store links', async ({
    page,
  }) => {
    await page.goto('/');
    const main = page.getByRole('main');
    await expect(main.getByRole('link', { name: 'Commencer dans le navigateur' })).toHaveAttribute(
      'href',
      /^https?:\/\/[^/]+\/studio$/,
    );
    await main.getByRole('link', { name: 'En savoir plus' }).click();
    await expect(page).toHaveURL(/#features$/);
    await expect(page.getByRole('heading', { level: 2, name: /Tout ce dont votre peau a besoin/ })).toBeInViewport();

    const features = page.locator('#features').getByRole('heading', { level: 3 });
    await expect(features).toHaveText(['Analyse de peau par IA', 'Consultation virtuelle', 'Suivi des progrès']);
    for (const zone of ['Front', 'Joues', 'Yeux', 'Nez', 'Menton', 'Contour des lèvres']) {
      await expect(page.locator('#features').getByText(zone, { exact: true })).toBeVisible();
    }
    const steps = page.getByRole('region', { name: 'Comment ça marche' }).getByRole('listitem');
    await expect(steps).toHaveCount(3);
    await expect(page.getByRole('region', { name: "Ce qu'en disent nos utilisateurs" }).locator('figure')).toHaveCount(
      3,
    );
    await expect(main.getByRole('link', { name: "Télécharger dans l'App Store" })).toBeVisible();
    await expect(main.getByRole('link', { name: 'Disponible sur Google Play' })).toBeVisible();
    await expect(main).toContainText('Un scan par semaine');
    await expect(main).toContainText('13 ans');
    await expect(main).toContainText("n'est pas un dispositif médical");
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /six zones/);
  });

  // Web app or mobile app, one story: each call to action says which one it opens.
  for (const lang of ['fr', 'en'] as const) {
    test(`the calls to action say what they open: the web app in the browser, or the stores (${lang})`, async ({
      page,
    }) => {
      const home = strings(lang, 'home');
      const common = strings(lang);
      await page.goto(`/?lang=${lang}`);
      const main = page.getByRole('main');
      const webApp = /^https?:\/\/[^/]+\/studio$/;
      await expect(main.getByRole('link', { name: home.hero.getStarted })).toHaveAttribute('href', webApp);

      const closing = main.getByRole('region', { name: home.cta.title });
      const inBrowser = closing.getByRole('region', { name: home.cta.web.title });
      await expect(inBrowser.getByRole('link', { name: home.cta.web.action })).toHaveAttribute('href', webApp);
      await expect(inBrowser.getByRole('link')).toHaveCount(1);
      const onPhone = closing.getByRole('region', { name: home.cta.stores.title });
      await expect(onPhone.getByRole('link', { name: common.storeBadge.appStore.label })).toHaveAttribute(
        'href',
        /^https:\/\/apps\.apple\.com\//,
      );
      await expect(onPhone.getByRole('link', { name: common.storeBadge.googlePlay.label })).toHaveAttribute(
        'href',
        /^https:\/\/play\.google\.com\//,
      );
      await expect(onPhone.getByRole('link')).toHaveCount(2);
      await waitForAnimations(page);
      const results = await new AxeBuilder({ page }).include('.cta').analyze();
      expect(results.violations).toEqual([]);
    });
  }

  for (const width of [320, 1536]) {
    test(`has no horizontal overflow at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/');
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBe(0);
    });
  }
});

test.describe('motion', () => {
  test('pages fade in, and not when the visitor prefers reduced motion', async ({ page }) => {
    await page.goto('/');
    const main = page.getByRole('main');
    expect(await main.evaluate((element) => getComputedStyle(element).animationDuration)).toBe('0.4s');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(parseFloat(await main.evaluate((element) => getComputedStyle(element).animationDuration))).toBeLessThan(
      0.001,
    );
  });
});

test.describe('pages in both languages', () => {
  for (const lang of ['fr', 'en'] as const) {
    for (const { path, ...titles } of [{ path: '/', fr: HOME.fr.h1, en: HOME.en.h1 }, ...COMPANY_PAGES]) {
      test(`${path} in ${lang}`, async ({ page }) => {
        const errors = collectErrors(page);
        const response = await page.goto(`${path}?lang=${lang}`);
        expect(response?.status()).toBe(200);
        await expect(page.locator('html')).toHaveAttribute('lang', lang);
        await expect(page.getByRole('heading', { level: 1 })).toContainText(titles[lang]);
        await expect(page).toHaveTitle(/\S/);
        await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /.{40,}/);
        await expect(page.getByRole('contentinfo')).toBeVisible();
        expect(await page.content()).not.toContain('%%SK:');
        expect(errors).toEqual([]);
      });
    }
  }

  test('company pages link to their contact address', async ({ page }) => {
    await page.goto('/careers');
    await expect(page.getByRole('main').getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/);
  });

  test('a client navigation to an unknown path goes to the home page', async ({ page }) => {
    await page.goto('/about');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.evaluate(() => {
      window.history.pushState({}, '', '/no-such-page');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(HOME.fr.h1);
  });
});

test.describe('accessibility', () => {
  for (const path of ['/', ...COMPANY_PAGES.map((page) => page.path)]) {
    test(`axe finds no violations on ${path}`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await waitForAnimations(page);
      const results = await new AxeBuilder({ page }).analyze();
      expect(
        results.violations.map(({ id, nodes }) => `${id}: ${nodes.map((node) => node.target).join(', ')}`),
      ).toEqual([]);
    });
  }

  test('axe finds no violations with the mobile menu open', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/');
    await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
    await expect(page.getByRole('link', { name: 'Support', exact: true }).first()).toBeVisible();
    await waitForAnimations(page);
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map(({ id, nodes }) => `${id}: ${nodes.map((node) => node.target).join(', ')}`)).toEqual(
      [],
    );
  });
});
