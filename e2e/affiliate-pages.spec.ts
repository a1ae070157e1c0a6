import AxeBuilder from '@axe-core/playwright';
import { type Page, expect, test } from '@playwright/test';
import {
  MINIMUM_PAYOUT_CENTS,
  PAYOUT_DAY_OF_MONTH,
  PREMIUM_COMMISSION_CENTS,
  PREMIUM_THRESHOLD,
  STANDARD_COMMISSION_CENTS,
} from '../packages/shared/src/affiliate/programme';
import { BASE_URL } from '../playwright.config';
import { type Lang, strings } from './helpers/i18n';
import { expectHealthy, waitForAnimations, watchPageHealth } from './helpers/page-health';

// The affiliate area's public pages (docs/product/routes-and-screens.md#affiliate-layout, "Affiliate landing", "Affiliate terms
// page"), in both languages: their content with the programme's real figures, the layout's links and
// mobile menu, and for every page (each signup step, both reset states) no axe violation and no CSP,
// console or hydration error.

const LOCALES: Record<Lang, string> = { fr: 'fr-FR', en: 'en-US' };
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** A dollar amount as each language prints it ("$2" / "2 $ US"), from the constant, not from the page's code. */
function usd(cents: number, lang: Lang): string {
  const amount = String(cents / 100);
  return lang === 'fr' ? `${amount}\u00a0$\u00a0US` : `$${amount}`;
}

/** Waits until React has hydrated the page (the consent banner appears only then) and its animations ended. */
async function settled(page: Page, lang: Lang) {
  await expect(page.getByRole('region', { name: strings(lang).consent.title })).toBeVisible();
  await waitForAnimations(page);
}

async function expectNoAxeViolation(page: Page, where: string) {
  await waitForAnimations(page);
  const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  const summary = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(summary, `axe on ${where}`).toEqual([]);
}

for (const lang of ['fr', 'en'] as const) {
  test.describe(`affiliate pages in ${lang}`, () => {
    test.use({ locale: LOCALES[lang] });
    const affiliate = strings(lang, 'affiliate');
    const terms = strings(lang, 'affiliate-terms');
    const common = strings(lang);

    test(`landing (${lang}): title, buttons, four features, four steps, FAQ and call to action with the real rates`, async ({
      page,
    }) => {
      const health = await watchPageHealth(page);
      await page.goto('/affiliate');
      await settled(page, lang);
      const main = page.getByRole('main');
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expect(main.getByRole('heading', { level: 1 })).toHaveText(affiliate.landing.title);
      await expect(page).toHaveTitle(affiliate.landing.meta.title.replace('{{brand}}', 'Skanova'));

      const hero = main.getByRole('region', { name: affiliate.landing.title });
      await expect(hero.getByRole('link', { name: affiliate.landing.join })).toHaveAttribute(
        'href',
        '/affiliate/signup',
      );
      await expect(hero.getByRole('link', { name: affiliate.landing.login })).toHaveAttribute(
        'href',
        '/affiliate/login',
      );
      // The rates come from the constants: $2 per subscription, $4 from 100 conversions.
      await expect(hero).toContainText(usd(STANDARD_COMMISSION_CENTS, lang));
      await expect(hero).toContainText(usd(PREMIUM_COMMISSION_CENTS, lang));
      await expect(hero).toContainText(String(PREMIUM_THRESHOLD));

      const features = main.getByRole('region', { name: affiliate.landing.features.title });
      await expect(features.getByRole('heading', { level: 3 })).toHaveText(
        (affiliate.landing.features.items as { title: string }[]).map((item) => item.title),
      );
      await expect(features).toContainText(usd(STANDARD_COMMISSION_CENTS, lang));
      const steps = main.getByRole('region', { name: affiliate.landing.steps.title }).getByRole('listitem');
      await expect(steps).toHaveCount(4);

      const faq = main.getByRole('region', { name: affiliate.landing.faq.title });
      const questions = (affiliate.landing.faq.items as { question: string }[]).map((item) => item.question);
      await expect(faq.locator('summary')).toHaveText(questions);
      // The payment answer states the one payment rule: the 15th, from $20.
      await faq.getByText(questions[1] ?? '').click();
      const paymentAnswer = faq.locator('details[open]');
      await expect(paymentAnswer).toHaveCount(1);
      await expect(paymentAnswer).toContainText(usd(MINIMUM_PAYOUT_CENTS, lang));
      await expect(paymentAnswer).toContainText(
        lang === 'fr' ? `le ${PAYOUT_DAY_OF_MONTH} du mois suivant` : `${PAYOUT_DAY_OF_MONTH}th of the following month`,
      );
      // One answer open at a time.
      await faq.getByText(questions[0] ?? '').click();
      await expect(faq.locator('details[open] summary')).toHaveText(questions[0] ?? '');

      const cta = main.getByRole('region', { name: affiliate.landing.cta.title });
      await expect(cta.getByRole('link', { name: affiliate.landing.cta.button })).toHaveAttribute(
        'href',
        '/affiliate/signup',
      );
      await expect(main).not.toContainText('{{');
      expectHealthy(health, `/affiliate (${lang})`);
    });

    test(`terms (${lang}): ten numbered sections, definitions, commission table, prohibited activities, May 2025`, async ({
      page,
    }) => {
      const health = await watchPageHealth(page);
      await page.goto('/affiliate/terms');
      await settled(page, lang);
      const article = page.getByRole('main').getByRole('article');
      await expect(article.getByRole('heading', { level: 1 })).toHaveText(terms.title);
      await expect(article).toContainText(lang === 'fr' ? 'mai 2025' : 'May 2025');
      const sections = article.locator('ol.legal__sections > li');
      await expect(sections).toHaveCount(10);
      await expect(sections.getByRole('heading', { level: 2 })).toHaveText(
        (terms.sections as { heading: string }[]).map((section) => section.heading),
      );
      await expect(sections.nth(1).locator('dt')).toHaveCount(5);
      // Enrollment: accepted or refused, 18 or older.
      await expect(sections.nth(2)).toContainText(lang === 'fr' ? '18 ans ou plus' : '18 or older');

      const table = sections.nth(3).getByRole('table', { name: terms.commissionTable.caption });
      await expect(table.getByRole('row')).toHaveCount(3);
      await expect(table.getByRole('row', { name: new RegExp(terms.commissionTable.standard) })).toContainText(
        usd(STANDARD_COMMISSION_CENTS, lang),
      );
      await expect(table.getByRole('row', { name: new RegExp(terms.commissionTable.premium) })).toContainText(
        usd(PREMIUM_COMMISSION_CENTS, lang),
      );
      await expect(table).toContainText(String(PREMIUM_THRESHOLD));
      await expect(table).toContainText('USD');

      await expect(sections.nth(4)).toContainText(usd(MINIMUM_PAYOUT_CENTS, lang));
      await expect(sections.nth(4)).toContainText('PayPal');
      await expect(sections.nth(6).getByRole('listitem')).toHaveCount(6);
      await expect(sections.nth(9)).toContainText(lang === 'fr' ? 'droit français' : 'French law');
      await expect(article).toContainText(terms.acceptance.replace('{{minAge}}', '18'));
      await expect(article.getByRole('link', { name: terms.back })).toHaveAttribute('href', '/affiliate/signup');
      await expect(article).not.toContainText('{{');
      expectHealthy(health, `/affiliate/terms (${lang})`);
    });

    test(`layout (${lang}): header and footer links, language switch, current year`, async ({ page }) => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto('/affiliate/terms');
      await settled(page, lang);
      const nav = page.getByRole('navigation', { name: affiliate.layout.navLabel });
      await expect(nav.getByRole('link', { name: affiliate.layout.home })).toHaveAttribute('href', '/affiliate');
      await expect(nav.getByRole('link', { name: affiliate.layout.dashboard })).toHaveAttribute(
        'href',
        '/affiliate/dashboard',
      );
      await expect(nav.getByRole('link', { name: affiliate.layout.mainSite })).toHaveAttribute('href', '/');
      // The terms are in the mobile menu only; on a wide screen the footer lists them.
      await expect(nav.getByRole('link', { name: affiliate.layout.terms })).toBeHidden();
      const footer = page.getByRole('contentinfo');
      await expect(footer.getByRole('link', { name: affiliate.layout.terms })).toHaveAttribute(
        'href',
        '/affiliate/terms',
      );
      await expect(footer.getByRole('link', { name: affiliate.layout.privacy })).toHaveAttribute('href', '/privacy');
      await expect(footer.getByRole('link', { name: affiliate.layout.support })).toHaveAttribute('href', '/support');
      await expect(footer).toContainText(`© ${new Date().getFullYear()} Skanova`);

      // Content is at most 1200 px wide.
      const width = await page
        .getByRole('main')
        .getByRole('article')
        .evaluate((element) => element.getBoundingClientRect().width);
      expect(width).toBeLessThanOrEqual(1200);

      // Client navigation inside the area keeps the layout; the language switch changes the page in place.
      await nav.getByRole('link', { name: affiliate.layout.home }).click();
      await expect(page).toHaveURL(`${BASE_URL}/affiliate`);
      await expect(nav.getByRole('link', { name: affiliate.layout.home })).toHaveAttribute('aria-current', 'page');
      const other: Lang = lang === 'fr' ? 'en' : 'fr';
      await page
        .getByRole('banner')
        .getByRole('button', { name: new RegExp(common.language.switchTo) })
        .click();
      await expect(page.locator('html')).toHaveAttribute('lang', other);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(strings(other, 'affiliate').landing.title);
    });

    test(`mobile menu (${lang}): opens with its button, lists the terms, closes when a link is chosen`, async ({
      page,
    }) => {
      await page.setViewportSize({ width: 375, height: 740 });
      await page.goto('/affiliate');
      await settled(page, lang);
      const menuButton = page.getByRole('button', { name: common.nav.openMenu });
      const nav = page.getByRole('navigation', { name: affiliate.layout.navLabel });
      await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
      await expect(nav.getByRole('link', { name: affiliate.layout.terms })).toBeHidden();

      await menuButton.click();
      const closeButton = page.getByRole('button', { name: common.nav.closeMenu });
      await expect(closeButton).toHaveAttribute('aria-expanded', 'true');
      for (const key of ['home', 'dashboard', 'mainSite', 'terms'] as const) {
        await expect(nav.getByRole('link', { name: affiliate.layout[key] })).toBeVisible();
      }
      // Escape closes it and gives focus back to the button.
      await page.keyboard.press('Escape');
      await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
      await expect(menuButton).toBeFocused();

      await menuButton.click();
      await nav.getByRole('link', { name: affiliate.layout.terms }).click();
      await expect(page).toHaveURL(/\/affiliate\/terms$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(terms.title);
      await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
      await expect(nav.getByRole('link', { name: affiliate.layout.terms })).toBeHidden();
    });
  });
}

/** Every public affiliate page and state, opened as a first-time visitor (consent banner showing). */
const AUDITED: { name: string; url: string; ready: (page: Page, lang: Lang) => Promise<void>; noindex?: boolean }[] = [
  { name: 'landing', url: '/affiliate', ready: async () => {} },
  { name: 'terms', url: '/affiliate/terms', ready: async () => {} },
  {
    name: 'signup step 1',
    url: '/affiliate/signup',
    ready: async (page, lang) => {
      await expect(page.getByRole('button', { name: strings(lang, 'auth').signup.next })).toBeEnabled();
    },
  },
  {
    name: 'login',
    url: '/affiliate/login',
    noindex: true,
    ready: async (page, lang) => {
      await expect(page.getByRole('button', { name: strings(lang, 'auth').login.submit, exact: true })).toBeEnabled();
    },
  },
  {
    name: 'reset password (request a link)',
    url: '/affiliate/reset-password',
    noindex: true,
    ready: async (page, lang) => {
      await expect(page.getByRole('button', { name: strings(lang, 'auth').reset.request.submit })).toBeVisible();
    },
  },
  {
    name: 'reset password (choose a new password)',
    url: '/affiliate/reset-password?token=not-checked-until-submitted',
    noindex: true,
    ready: async (page, lang) => {
      await expect(page.getByRole('button', { name: strings(lang, 'auth').reset.choose.submit })).toBeVisible();
    },
  },
];

for (const lang of ['fr', 'en'] as const) {
  test.describe(`accessibility and health in ${lang}`, () => {
    test.use({ locale: LOCALES[lang] });

    for (const entry of AUDITED) {
      test(`${entry.name} (${lang}): axe finds no violation; no CSP, console or hydration error; meta`, async ({
        page,
      }) => {
        const health = await watchPageHealth(page);
        const response = await page.goto(entry.url);
        expect(response?.status()).toBe(200);
        await settled(page, lang);
        await entry.ready(page, lang);
        await expectNoAxeViolation(page, `${entry.url} (${lang})`);
        const meta = await page.evaluate(() => ({
          lang: document.documentElement.lang,
          title: document.title,
          description: document.querySelector('meta[name="description"]')?.getAttribute('content') ?? '',
          robots: document.querySelector('meta[name="robots"]')?.getAttribute('content') ?? '',
        }));
        expect(meta.lang).toBe(lang);
        expect(meta.title).not.toBe('');
        expect(meta.title).not.toContain('%%SK:');
        expect(meta.description).not.toBe('');
        if (entry.noindex) expect(meta.robots).toContain('noindex');
        else expect(meta.robots).not.toContain('noindex');
        expectHealthy(health, `${entry.url} (${lang})`);
      });
    }

    test(`signup steps 2 and 3 with their messages (${lang}): axe finds no violation`, async ({ page }) => {
      const auth = strings(lang, 'auth');
      const health = await watchPageHealth(page);
      await page.goto('/affiliate/signup');
      await settled(page, lang);
      const next = page.getByRole('button', { name: auth.signup.next });
      await expect(next).toBeEnabled();
      await next.click();
      await expect(page.getByRole('alert')).toHaveText(auth.errors.allFieldsRequired);
      await expectNoAxeViolation(page, `signup step 1 with its message (${lang})`);

      await page.getByLabel(auth.fields.email, { exact: true }).fill('axe@example.com');
      await page.getByLabel(auth.fields.password, { exact: true }).fill('long-enough');
      await page.getByLabel(auth.fields.confirmPassword, { exact: true }).fill('long-enough');
      await next.click();
      await expect(page.getByRole('heading', { level: 2, name: new RegExp(auth.signup.steps[1]) })).toBeVisible();
      await expectNoAxeViolation(page, `signup step 2 (${lang})`);

      await page.getByLabel(auth.fields.firstName, { exact: true }).fill('Axel');
      await page.getByLabel(auth.fields.lastName, { exact: true }).fill('Audit');
      await next.click();
      await expect(page.getByRole('heading', { level: 2, name: new RegExp(auth.signup.steps[2]) })).toBeVisible();
      await page.getByLabel(strings(lang, 'payment').methods.bank_transfer).check();
      await page.getByRole('button', { name: auth.signup.submit }).click();
      await expect(page.getByRole('alert')).toContainText(
        strings(lang, 'payment').errors['bank-details-required'].split(':')[0] ?? '',
      );
      await expectNoAxeViolation(page, `signup step 3 with bank fields and a message (${lang})`);
      expectHealthy(health, `/affiliate/signup steps (${lang})`);
    });
  });
}
