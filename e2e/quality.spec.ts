import AxeBuilder from '@axe-core/playwright';
import { type Page, type Request, expect, test } from '@playwright/test';
import { BASE_URL } from '../playwright.config';
import { logInViaApi, signUpViaApi } from './helpers/affiliate';
import { type Lang, strings } from './helpers/i18n';
import { expectHealthy, waitForAnimations, watchPageHealth } from './helpers/page-health';
import { SEED_OPERATOR } from './helpers/seed-accounts';

// Cross-cutting quality of every public page in both languages (docs/product/rules-and-constants.md#languages, docs/product/rules-and-constants.md#quality-bar): no CSP violation,
// no console or uncaught error, no hydration error, the right language in <html lang>, title and
// description, canonical and hreflang alternates, and no axe violation — with the consent banner
// showing, as a first-time visitor sees it. Then language negotiation, 404s and consent.
//
// Tests titled "@health" are also run against a development build (`npm run test:e2e:dev`), where
// React reports attribute mismatches during hydration that the production build stays silent about.

interface PublicPage {
  url: string;
  /** Path of the page itself (canonical, hreflang). */
  path: string;
  /** Kept out of search engines: no canonical/hreflang required. */
  noindex?: boolean;
}

const PAGES: PublicPage[] = [
  { url: '/', path: '/' },
  { url: '/terms', path: '/terms' },
  { url: '/privacy', path: '/privacy' },
  { url: '/eula', path: '/eula' },
  { url: '/rgpd', path: '/rgpd' },
  { url: '/support', path: '/support' },
  { url: '/about', path: '/about' },
  { url: '/careers', path: '/careers' },
  { url: '/press', path: '/press' },
  { url: '/blog', path: '/blog' },
  { url: '/download?ref=TESTCODE', path: '/download', noindex: true },
  { url: '/affiliate', path: '/affiliate' },
  { url: '/affiliate/terms', path: '/affiliate/terms' },
  { url: '/affiliate/signup', path: '/affiliate/signup' },
  { url: '/affiliate/login', path: '/affiliate/login', noindex: true },
  { url: '/affiliate/reset-password', path: '/affiliate/reset-password', noindex: true },
  // The web app's home: on a new device, the consent asked before the first scan (its other pages send
  // a visitor without consent there; e2e/studio.spec.ts goes through them).
  { url: '/studio', path: '/studio' },
  // Signed out, the operator console is its sign-in form.
  { url: '/admin', path: '/admin', noindex: true },
];

/** Pages behind a session: checked signed in (signed out they send the visitor to the login page). */
const SIGNED_IN_PAGES = ['/affiliate/dashboard', '/affiliate/qrcode', '/affiliate/marketing'];

const LOCALES: Record<Lang, string> = { fr: 'fr-FR', en: 'en-US' };
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa'];
/** `npm run test:e2e:dev`: the same pages from a development build. */
const DEVELOPMENT_BUILD = process.env.E2E_BUILD === 'development';

function consentBanner(page: Page, lang: Lang) {
  return page.getByRole('region', { name: strings(lang).consent.title });
}

/** Opens a page as a first-time visitor and waits until React has hydrated it (the banner appears only then). */
async function openHydrated(page: Page, url: string, lang: Lang) {
  const response = await page.goto(url);
  expect(response?.status(), `status of ${url}`).toBe(200);
  await expect(consentBanner(page, lang)).toBeVisible();
  await page.waitForLoadState('networkidle');
}

async function headMeta(page: Page) {
  return page.evaluate(() => ({
    lang: document.documentElement.lang,
    title: document.title,
    descriptions: [...document.querySelectorAll('meta[name="description"]')].map(
      (m) => m.getAttribute('content') ?? '',
    ),
    canonicals: [...document.querySelectorAll('link[rel="canonical"]')].map((l) => l.getAttribute('href') ?? ''),
    alternates: Object.fromEntries(
      [...document.querySelectorAll('link[rel="alternate"][hreflang]')].map((l) => [
        l.getAttribute('hreflang'),
        l.getAttribute('href'),
      ]),
    ) as Record<string, string>,
    robots: document.querySelector('meta[name="robots"]')?.getAttribute('content') ?? '',
  }));
}

/** Title and description of a page as the server sends it in one language (no browser). */
async function servedMeta(page: Page, url: string, lang: Lang) {
  const separator = url.includes('?') ? '&' : '?';
  const html = await (await page.request.get(`${url}${separator}lang=${lang}`)).text();
  const decode = (text: string) =>
    text
      .replace(/&#x27;|&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  return {
    title: decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? ''),
    description: decode(/<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? ''),
  };
}

for (const lang of ['fr', 'en'] as const) {
  test.describe(`every public page in ${lang}`, () => {
    test.use({ locale: LOCALES[lang] });

    for (const entry of PAGES) {
      test(`@health ${entry.url} (${lang}): no CSP, console, page or hydration error; language and meta; axe`, async ({
        page,
      }) => {
        const health = await watchPageHealth(page);
        await openHydrated(page, entry.url, lang);
        expectHealthy(health, `${entry.url} (${lang})`);

        const meta = await headMeta(page);
        expect(meta.lang).toBe(lang);
        expect(meta.title.trim(), 'title').not.toBe('');
        expect(meta.title, 'no build placeholder in the title').not.toContain('%%SK:');
        expect(meta.descriptions, 'one meta description').toHaveLength(1);
        expect(meta.descriptions[0]?.trim(), 'meta description').not.toBe('');

        // The language is the page's: the other language's title and description differ.
        const other: Lang = lang === 'fr' ? 'en' : 'fr';
        const served = await servedMeta(page, entry.url, lang);
        const otherServed = await servedMeta(page, entry.url, other);
        expect(meta.title, 'hydration keeps the prerendered title').toBe(served.title);
        // (Titles may legitimately coincide, e.g. "Blog"; descriptions are sentences and must not.)
        expect(served.description, `the ${lang} description differs from the ${other} one`).not.toBe(
          otherServed.description,
        );

        if (entry.noindex) {
          expect(meta.robots).toContain('noindex');
        } else {
          expect(meta.robots, 'indexable').not.toContain('noindex');
          expect(meta.canonicals, 'one canonical').toEqual([`${BASE_URL}${entry.path}?lang=${lang}`]);
          expect(meta.alternates.fr).toBe(`${BASE_URL}${entry.path}?lang=fr`);
          expect(meta.alternates.en).toBe(`${BASE_URL}${entry.path}?lang=en`);
          // x-default is optional; when present it is the bare address or the French one (the fallback).
          if (meta.alternates['x-default'] !== undefined) {
            expect([`${BASE_URL}${entry.path}`, `${BASE_URL}${entry.path}?lang=fr`]).toContain(
              meta.alternates['x-default'],
            );
          }
        }

        // Axe on the same page, consent banner showing; the development build's run is for React's
        // hydration warnings, and its markup is the production build's.
        if (DEVELOPMENT_BUILD) return;
        await waitForAnimations(page);
        const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
        const summary = results.violations.map(
          (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
        );
        expect(summary, 'axe finds no WCAG 2.1 AA violation').toEqual([]);
      });
    }
  });
}

for (const lang of ['fr', 'en'] as const) {
  test.describe(`every signed-in page in ${lang}`, () => {
    test.use({ locale: LOCALES[lang] });

    for (const url of SIGNED_IN_PAGES) {
      test(`@health ${url} (${lang}): no CSP, console, page or hydration error; noindex`, async ({ page }) => {
        await signUpViaApi(page, { language: lang });
        const health = await watchPageHealth(page);
        await openHydrated(page, url, lang);
        // The page itself, not the login page it sends signed-out visitors to.
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expect(page).toHaveURL(new RegExp(`${url}$`));
        await page.waitForLoadState('networkidle');
        expectHealthy(health, `${url} (${lang}, signed in)`);
        const meta = await headMeta(page);
        expect(meta.lang).toBe(lang);
        expect(meta.robots).toContain('noindex');
        // The prerendered file (the loading state) is noindex too, for crawlers that do not run scripts.
        expect(await (await page.request.get(url)).text()).toContain(
          '<meta name="robots" content="noindex, nofollow"/>',
        );
      });
    }
  });
}

for (const lang of ['fr', 'en'] as const) {
  test.describe(`the operator console in ${lang}`, () => {
    test.use({ locale: LOCALES[lang] });

    test(`@health /admin (${lang}), signed in as an operator: no CSP, console, page or hydration error; noindex; axe`, async ({
      page,
    }) => {
      await logInViaApi(page, SEED_OPERATOR);
      const health = await watchPageHealth(page);
      await openHydrated(page, '/admin', lang);
      await expect(page.getByRole('heading', { level: 1, name: strings(lang, 'admin').header.title })).toBeVisible();
      await expect(page.getByRole('tablist')).toBeVisible();
      await page.waitForLoadState('networkidle');
      expectHealthy(health, `/admin (${lang}, operator)`);
      const meta = await headMeta(page);
      expect(meta.lang).toBe(lang);
      expect(meta.robots).toContain('noindex');
      expect(await (await page.request.get('/admin')).text()).toContain(
        '<meta name="robots" content="noindex, nofollow"/>',
      );
      await waitForAnimations(page);
      const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
      expect(
        results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
    });
  });
}

test.describe('language negotiation in the browser', () => {
  test.describe('with an English browser', () => {
    test.use({ locale: 'en-US' });

    test('Accept-Language decides when there is no cookie', async ({ page }) => {
      await page.goto('/terms');
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    });

    test('the lang cookie beats Accept-Language', async ({ page, context }) => {
      await context.addCookies([{ name: 'lang', value: 'fr', url: BASE_URL }]);
      await page.goto('/terms');
      await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    });
  });

  test('?lang=en sets the cookie, which then decides the next pages', async ({ page, context }) => {
    await page.goto('/support?lang=en');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    const cookie = (await context.cookies()).find((c) => c.name === 'lang');
    expect(cookie?.value).toBe('en');
    await page.goto('/privacy');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });

  test('an unknown page path redirects to the home page', async ({ page }) => {
    const response = await page.goto('/no-such-page/deeper?x=1');
    expect(response?.status()).toBe(200);
    await expect(page).toHaveURL(`${BASE_URL}/`);
  });

  test('unknown API and asset paths answer 404', async ({ request }) => {
    expect((await request.get('/api/unknown', { maxRedirects: 0 })).status()).toBe(404);
    expect((await request.get('/assets/nope.js', { maxRedirects: 0 })).status()).toBe(404);
  });
});

test.describe('consent banner and web vitals', () => {
  /** Makes the page hidden, as when the visitor switches tab: web-vitals reports and the reporter flushes. */
  async function hidePage(page: Page) {
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
  }

  /** Keeps a copy of every beacon body the page sends (the browser does not expose Blob bodies to the test). */
  async function spyOnBeacons(page: Page) {
    await page.addInitScript(() => {
      const bodies: string[] = [];
      (window as unknown as { __beaconBodies: string[] }).__beaconBodies = bodies;
      const send = navigator.sendBeacon.bind(navigator);
      navigator.sendBeacon = (url, data) => {
        if (data instanceof Blob) void data.text().then((text) => bodies.push(text));
        else if (typeof data === 'string') bodies.push(data);
        return send(url, data);
      };
    });
    return () => page.evaluate(() => (window as unknown as { __beaconBodies: string[] }).__beaconBodies);
  }

  function watchVitals(page: Page) {
    const posts: Request[] = [];
    const libraryLoads: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/vitals') && request.method() === 'POST') posts.push(request);
      if (/\/assets\/web-vitals[^/]*\.js$/.test(request.url())) libraryLoads.push(request.url());
    });
    return { posts, libraryLoads };
  }

  test('a first-time visitor sees the banner; refusing is remembered and nothing is measured', async ({
    page,
    context,
  }) => {
    const lang = 'fr';
    const vitals = watchVitals(page);
    await openHydrated(page, '/support?ref=ABC', lang);
    await consentBanner(page, lang)
      .getByRole('button', { name: strings(lang).consent.refuse })
      .click();
    await expect(consentBanner(page, lang)).toBeHidden();
    expect((await context.cookies()).find((c) => c.name === 'consent')?.value).toBe('denied');

    await hidePage(page);
    await page.reload();
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(consentBanner(page, lang)).toBeHidden();
    await hidePage(page);
    // Give a beacon every chance to leave before asserting that none did.
    await page.waitForLoadState('networkidle');
    expect(vitals.posts).toHaveLength(0);
    expect(vitals.libraryLoads, 'web-vitals is not even downloaded without consent').toHaveLength(0);
  });

  test('accepting starts the reporter at once: metrics are posted with the path only', async ({ page }) => {
    const lang = 'en';
    const vitals = watchVitals(page);
    const beaconBodies = await spyOnBeacons(page);
    await page.goto('/support?lang=en&utm=x#faq');
    await expect(consentBanner(page, lang)).toBeVisible();
    expect(vitals.libraryLoads, 'web-vitals is not part of the first load').toHaveLength(0);
    await consentBanner(page, lang)
      .getByRole('button', { name: strings(lang).consent.accept })
      .click();
    await expect(consentBanner(page, lang)).toBeHidden();

    await expect
      .poll(() => vitals.libraryLoads.length, { message: 'web-vitals loaded after consent' })
      .toBeGreaterThan(0);
    const posted = page.waitForRequest(
      (request) => request.url().endsWith('/api/vitals') && request.method() === 'POST',
    );
    await hidePage(page);
    const request = await posted;
    await expect.poll(async () => (await beaconBodies()).length).toBeGreaterThan(0);
    const metrics = (await beaconBodies()).flatMap((text) => {
      const body = JSON.parse(text) as unknown;
      return (Array.isArray(body) ? body : [body]) as { page: string; name: string; value: number }[];
    });
    expect(metrics.length).toBeGreaterThan(0);
    for (const metric of metrics) {
      expect(metric.page).toBe('/support');
      expect(['CLS', 'FCP', 'INP', 'LCP', 'TTFB']).toContain(metric.name);
      expect(metric.value).toBeGreaterThanOrEqual(0);
    }
    // (A beacon carries the site's cookies like any same-origin request; the server reads none and sets none.)
    const response = await request.response();
    if (response) {
      expect(response.status()).toBe(204);
      expect(await response.headerValue('set-cookie')).toBeNull();
    }
  });

  test('a visitor who accepted earlier is measured from the start, without the banner', async ({ page, context }) => {
    await context.addCookies([{ name: 'consent', value: 'granted', url: BASE_URL }]);
    const vitals = watchVitals(page);
    await page.goto('/terms');
    await page.waitForLoadState('networkidle');
    await expect(consentBanner(page, 'fr')).toBeHidden();
    const posted = page.waitForRequest(
      (request) => request.url().endsWith('/api/vitals') && request.method() === 'POST',
    );
    await hidePage(page);
    await posted;
    expect(vitals.posts.length).toBeGreaterThan(0);
  });

  test('the banner is reachable and answerable with the keyboard alone', async ({ page, context }) => {
    const lang = 'fr';
    await openHydrated(page, '/', lang);
    const accept = consentBanner(page, lang).getByRole('button', { name: strings(lang).consent.accept });
    const refuse = consentBanner(page, lang).getByRole('button', { name: strings(lang).consent.refuse });
    // Tab through the page until a banner button has the focus.
    let reached = false;
    for (let presses = 0; presses < 150 && !reached; presses++) {
      await page.keyboard.press('Tab');
      reached = await refuse.evaluate((el) => el === document.activeElement);
    }
    expect(reached, 'the refuse button is reachable with Tab').toBe(true);
    await page.keyboard.press('Tab');
    await expect(accept).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(consentBanner(page, lang)).toBeHidden();
    expect((await context.cookies()).find((c) => c.name === 'consent')?.value).toBe('granted');
  });

  test('the banner speaks the page language and leaves the page usable on a small screen', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await openHydrated(page, '/?lang=en', 'en');
    const banner = consentBanner(page, 'en');
    await expect(banner.getByRole('button', { name: strings('en').consent.accept })).toBeVisible();
    await expect(banner.getByRole('link', { name: strings('en').consent.policy })).toHaveAttribute('href', '/privacy');
    const box = await banner.boundingBox();
    expect(box, 'banner box').not.toBeNull();
    expect(box!.height, 'the banner leaves most of the screen to the page').toBeLessThan(640 * 0.75);
    expect(box!.width).toBeLessThanOrEqual(320);
  });
});
