import AxeBuilder from '@axe-core/playwright';
import { type Browser, type Page, expect, test } from '@playwright/test';
import { pauseClockNow } from './helpers/clock';
import { DEVICES } from './helpers/devices';
import { waitForAnimations } from './helpers/page-health';

// The referral and download landing (docs/product/routes-and-screens.md#referral-landing, docs/product/rules-and-constants.md#timings timings) on iOS,
// Android and desktop. Time is driven with page.clock: the page's timers never run on their own.
// The app's custom scheme is observed as the request Chromium makes for it (it then fails: no app
// here); store pages are answered by a stub, so the test sees the page really get there.

const APP_SCHEME = 'skanova://';
const CODE = 'TESTCODE';
const TRACKING_ID = 'tid-e2e-0001';
/** The configured store address (the server's default; the test server does not change it). */
const PLAY_STORE_URL = 'https://play.google.com/store/apps/details?id=com.skanova.app';

type DeviceName = keyof typeof DEVICES;

interface LandingVisit {
  page: Page;
  /** Where the page's clock stands until the test moves it. */
  pausedAt: Date;
  /** Every address of the app's scheme the page tried to open, in order. */
  appAttempts: string[];
  /** Bodies sent to storePreInstallData. */
  recorded: unknown[];
  /** storePreInstallData's answers: HTTP status and body. */
  answers: { status: number; body: unknown }[];
  consoleErrors: string[];
}

interface VisitOptions {
  /** How storePreInstallData answers: the real server, a fixed tracking id, or an error. */
  preInstall?: 'server' | 'stub' | 'error';
  locale?: string;
  permissions?: string[];
  /** The consent banner's answer, as if given on an earlier visit. */
  consent?: 'granted' | 'denied';
}

/** Opens a landing address on a device with a paused clock, and waits for the page to be hydrated. */
async function visit(
  browser: Browser,
  device: DeviceName,
  path: string,
  options: VisitOptions = {},
): Promise<LandingVisit> {
  const context = await browser.newContext({ ...DEVICES[device], locale: options.locale ?? 'en-US' });
  if (options.permissions) await context.grantPermissions(options.permissions);
  if (options.consent)
    await context.addCookies([{ name: 'consent', value: options.consent, url: test.info().project.use.baseURL ?? '' }]);
  const page = await context.newPage();
  const appAttempts: string[] = [];
  const recorded: unknown[] = [];
  const consoleErrors: string[] = [];
  const answers: LandingVisit['answers'] = [];
  page.on('response', async (response) => {
    if (!response.url().endsWith('/api/fn/storePreInstallData')) return;
    answers.push({ status: response.status(), body: await response.json().catch(() => null) });
  });
  page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
  page.on('request', (request) => {
    if (request.url().startsWith(APP_SCHEME)) appAttempts.push(request.url());
    if (request.url().endsWith('/api/fn/storePreInstallData')) recorded.push(request.postDataJSON());
  });
  await context.route(/^https:\/\/(apps\.apple\.com|play\.google\.com)\//, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Store</title><h1>Store</h1>' }),
  );
  if (options.preInstall === 'stub') {
    await page.route('**/api/fn/storePreInstallData', (route) =>
      route.fulfill({ contentType: 'application/json', body: JSON.stringify({ result: { trackingId: TRACKING_ID } }) }),
    );
  } else if (options.preInstall === 'error') {
    await page.route('**/api/fn/storePreInstallData', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: '{"error":{"status":"INTERNAL","message":"INTERNAL"}}',
      }),
    );
  }
  await page.addInitScript(() => {
    const violations: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = violations;
    document.addEventListener('securitypolicyviolation', (event) =>
      violations.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  const pausedAt = await pauseClockNow(page);
  await page.goto(path);
  // Hydrated: the device-specific part of the page exists only after the page has mounted.
  await expect(page.locator('.landing__status')).not.toBeEmpty();
  return { page, pausedAt, appAttempts, recorded, answers, consoleErrors };
}

/** The consent bar comes after hydration and fades in: axe measures contrast on what it sees. */
async function waitForConsentBar(page: Page, name: string) {
  await expect(page.getByRole('region', { name })).toBeVisible();
  await waitForAnimations(page);
}

async function expectNoCspViolation(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
}

async function expectOnLanding(page: Page) {
  await expect(page).toHaveURL(/\/download\?/);
}

/** The store badges a device is shown (each a link named by its whole phrase), and where they lead. */
async function storeBadges(page: Page) {
  const badges = page.locator('.store-badge');
  return badges.evaluateAll((links) =>
    links.map((link) => ({
      name: link.getAttribute('aria-label'),
      lines: [...link.children].map((line) => (line as HTMLElement).innerText),
      // Drawn as the stores draw theirs: black, rounded, with the store's logo.
      background: getComputedStyle(link).backgroundColor,
      rounded: parseFloat(getComputedStyle(link).borderTopLeftRadius) > 0,
      logo: /^url\("data:image\/svg\+xml/.test(
        getComputedStyle(link, '::before').backgroundImage !== 'none'
          ? getComputedStyle(link, '::before').backgroundImage
          : getComputedStyle(link, '::before').maskImage,
      ),
    })),
  );
}

/** "Try it in your browser": the web app, with the referral's code when the landing has one. */
async function expectWebAppLink(page: Page, name: string, code: string | null) {
  const link = page.getByRole('link', { name, exact: true });
  await expect(link).toHaveAttribute('href', new RegExp(`/studio${code ? `\\?ref=${code}` : ''}$`));
}

test.describe('iOS', () => {
  test('tries the app after 300 ms, then the App Store 2.5 s later', async ({ browser }) => {
    const { page, appAttempts } = await visit(browser, 'iphone', `/ref/${CODE}`);
    await expect(page.getByText(`Invited with code ${CODE}`)).toBeVisible();

    await page.clock.runFor(299);
    expect(appAttempts).toEqual([]);
    await page.clock.runFor(1);
    await expect.poll(() => appAttempts).toEqual([`${APP_SCHEME}ref/${CODE}`]);

    await page.clock.runFor(2499);
    await expectOnLanding(page);
    await page.clock.runFor(1);
    await page.waitForURL((url) => url.hostname === 'apps.apple.com');
    expect(appAttempts).toHaveLength(1);
    await page.context().close();
  });

  test('shows the App Store badge alone, and the web app with the referral code', async ({ browser }) => {
    const { page } = await visit(browser, 'iphone', `/ref/${CODE}`);
    await expect(page.getByRole('link', { name: 'Download on the App Store' })).toHaveAttribute(
      'href',
      /^https:\/\/apps\.apple\.com\//,
    );
    expect(await storeBadges(page)).toEqual([
      {
        name: 'Download on the App Store',
        lines: ['Download on the', 'App Store'],
        background: 'rgb(0, 0, 0)',
        rounded: true,
        logo: true,
      },
    ]);
    await expect(page.getByRole('link', { name: 'Get it on Google Play' })).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 2, name: 'Or try it in your browser' })).toBeVisible();
    await expectWebAppLink(page, 'Open the web app', CODE);
    await page.context().close();
  });

  test('stays when the page is hidden after the attempt (the app opened)', async ({ browser }) => {
    const { page, appAttempts } = await visit(browser, 'iphone', `/app/ref/${CODE}`);
    await page.clock.runFor(300);
    await expect.poll(() => appAttempts).toHaveLength(1);
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await page.clock.runFor(10_000);
    await expectOnLanding(page);
    expect(appAttempts).toHaveLength(1);
    await page.context().close();
  });

  test('stays when the page is put away (pagehide)', async ({ browser }) => {
    const { page, appAttempts } = await visit(browser, 'iphone', '/app/download');
    await page.clock.runFor(300);
    await expect.poll(() => appAttempts).toEqual([`${APP_SCHEME}download`]);
    await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true })));
    await page.clock.runFor(10_000);
    await expectOnLanding(page);
    await page.context().close();
  });

  test('recognises iPadOS, which presents itself as a Mac with a touch screen', async ({ browser }) => {
    const context = await browser.newContext({
      userAgent:
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
      viewport: { width: 820, height: 1180 },
      hasTouch: true,
      locale: 'en-US',
    });
    const page = await context.newPage();
    // Chromium reports its own platform and one touch point; iPadOS Safari reports MacIntel and five.
    await page.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'platform', { get: () => 'MacIntel' });
      Object.defineProperty(Navigator.prototype, 'maxTouchPoints', { get: () => 5 });
    });
    const attempts: string[] = [];
    page.on('request', (request) => request.url().startsWith(APP_SCHEME) && attempts.push(request.url()));
    await pauseClockNow(page);
    await page.goto(`/ref/${CODE}`);
    await expect(page.getByRole('button', { name: 'Open the app' })).toBeVisible();
    await page.clock.runFor(300);
    await expect.poll(() => attempts).toEqual([`${APP_SCHEME}ref/${CODE}`]);
    await context.close();
  });
});

test.describe('Android', () => {
  test('counts down 5 s, tries the app, then Google Play with the tracking id as install referrer', async ({
    browser,
  }) => {
    const { page, appAttempts } = await visit(browser, 'android', `/download?ref=${CODE}`, { preInstall: 'stub' });
    const status = page.locator('.landing__status');
    await expect(page.getByText(`Invited with code ${CODE}`)).toBeVisible();
    // The countdown is announced once, not every second.
    await expect(page.getByRole('status')).toHaveText('The app opens in 5 seconds.');
    for (const seconds of [5, 4, 3, 2, 1]) {
      await expect(status).toHaveText(`Opening the app in ${seconds}…`);
      expect(appAttempts).toEqual([]);
      await page.clock.runFor(1000);
    }
    await expect.poll(() => appAttempts).toEqual([`${APP_SCHEME}ref/${CODE}`]);

    await page.clock.runFor(2499);
    await expectOnLanding(page);
    await page.clock.runFor(1);
    await page.waitForURL((url) => url.hostname === 'play.google.com');
    const url = new URL(page.url());
    expect(`${url.origin}${url.pathname}?id=${url.searchParams.get('id')}`).toBe(PLAY_STORE_URL);
    const referrer = new URLSearchParams(url.searchParams.get('referrer') ?? '');
    expect(referrer.get('tracking_id')).toBe(TRACKING_ID);
    expect(referrer.get('code')).toBe(CODE);
    expect(appAttempts).toHaveLength(1);
    await page.context().close();
  });

  test('shows the Google Play badge alone, and the web app with the referral code', async ({ browser }) => {
    const { page } = await visit(browser, 'android', `/download?ref=${CODE}`, { preInstall: 'stub' });
    await expect(page.getByRole('link', { name: 'Get it on Google Play' })).toHaveAttribute('href', /referrer=/);
    expect(await storeBadges(page)).toEqual([
      {
        name: 'Get it on Google Play',
        // The small line is written in capitals, as on Google's badge.
        lines: ['GET IT ON', 'Google Play'],
        background: 'rgb(0, 0, 0)',
        rounded: true,
        logo: true,
      },
    ]);
    await expect(page.getByRole('link', { name: 'Download on the App Store' })).toHaveCount(0);
    await expectWebAppLink(page, 'Open the web app', CODE);
    await page.context().close();
  });

  test('without consent, records only what attribution needs', async ({ browser }) => {
    const { page, pausedAt, recorded } = await visit(browser, 'android', `/ref/${CODE}`, { preInstall: 'server' });
    await expect.poll(() => recorded.length).toBe(1);
    expect((recorded[0] as { data: { fingerprint: unknown } }).data.fingerprint).toEqual({
      userAgent: DEVICES.android.userAgent,
      language: '',
      timezone: '',
      screenResolution: '',
      platform: 'android',
      colorDepth: null,
      deviceMemory: null,
      hardwareConcurrency: null,
      sessionId: expect.stringMatching(/^[A-Za-z0-9-]{16,64}$/),
      timestamp: pausedAt.toISOString(),
      referrer: 'direct',
    });
    await page.context().close();
  });

  test('with consent, records the visit with the fingerprint and deep-link payload of the spec', async ({
    browser,
  }) => {
    const { page, pausedAt, recorded, answers } = await visit(browser, 'android', `/ref/${CODE}`, {
      preInstall: 'server',
      consent: 'granted',
    });
    await expect.poll(() => recorded.length).toBe(1);
    expect(recorded[0]).toEqual({
      data: {
        fingerprint: {
          userAgent: DEVICES.android.userAgent,
          language: 'en-US',
          timezone: expect.any(String),
          screenResolution: '412x915',
          platform: 'android',
          colorDepth: expect.any(Number),
          deviceMemory: expect.any(Number),
          hardwareConcurrency: expect.any(Number),
          sessionId: expect.stringMatching(/^[A-Za-z0-9-]{16,64}$/),
          timestamp: pausedAt.toISOString(),
          referrer: 'direct',
        },
        deeplink: { type: 'ref', code: CODE, fullPath: `/ref/${CODE}` },
        path: `/ref/${CODE}`,
        query: { type: 'ref', ref: CODE },
      },
    });
    // The server answers a tracking id, which the Google Play link then carries.
    await expect.poll(() => answers.length).toBe(1);
    expect(answers[0]?.status).toBe(200);
    const trackingId = (answers[0]?.body as { result: { trackingId: string } }).result.trackingId;
    expect(trackingId).toEqual(expect.any(String));
    const referrer = encodeURIComponent(`tracking_id=${encodeURIComponent(trackingId)}&code=${CODE}`);
    const playLink = page.getByRole('link', { name: 'Get it on Google Play' });
    await expect.poll(() => playLink.getAttribute('href')).toBe(`${PLAY_STORE_URL}&referrer=${referrer}`);
    await page.context().close();
  });

  test('still opens the app and the store when storePreInstallData fails', async ({ browser }) => {
    const { page, appAttempts, consoleErrors } = await visit(browser, 'android', `/ref/${CODE}`, {
      preInstall: 'error',
    });
    await expect.poll(() => consoleErrors.some((text) => text.includes('storePreInstallData failed'))).toBe(true);
    await page.clock.runFor(5000);
    await expect.poll(() => appAttempts).toEqual([`${APP_SCHEME}ref/${CODE}`]);
    await page.clock.runFor(2500);
    await page.waitForURL((url) => url.hostname === 'play.google.com');
    const referrer = new URLSearchParams(new URL(page.url()).searchParams.get('referrer') ?? '');
    expect(referrer.get('tracking_id')).toBeNull();
    expect(referrer.get('code')).toBe(CODE);
    await page.context().close();
  });

  test('the "Open the app" button copies the tracking id and opens the app once', async ({ browser }) => {
    const { page, appAttempts } = await visit(browser, 'android', `/ref/${CODE}`, {
      preInstall: 'stub',
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    // The tracking id has arrived: the Google Play link carries it.
    await expect(page.getByRole('link', { name: 'Get it on Google Play' })).toHaveAttribute(
      'href',
      new RegExp(TRACKING_ID),
    );
    await page.clock.runFor(2000);
    await page.getByRole('button', { name: 'Open the app' }).click();
    await expect.poll(() => appAttempts).toEqual([`${APP_SCHEME}ref/${CODE}`]);
    // The app reads "sk-tid:<tracking id>" from the clipboard on its first launch.
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`sk-tid:${TRACKING_ID}`);

    // The countdown's own attempt does not repeat it.
    await page.clock.runFor(3000);
    expect(appAttempts).toHaveLength(1);
    await page.context().close();
  });
});

test.describe('desktop', () => {
  test('counts down, then shows the desktop message and a QR code per store, without leaving', async ({ browser }) => {
    const { page, appAttempts } = await visit(browser, 'desktop', `/ref/${CODE}`, { preInstall: 'stub' });
    await expect(page.getByRole('button', { name: 'Open the app' })).toHaveCount(0);
    await expect(page.locator('.landing__status')).toHaveText('Preparing your download links… 5');
    await page.clock.runFor(4000);
    await expect(page.locator('.landing__status')).toHaveText('Preparing your download links… 1');
    await expect(page.getByRole('heading', { name: 'Skanova lives on your phone' })).toHaveCount(0);
    await page.clock.runFor(1000);

    await expect(page.getByRole('heading', { name: 'Skanova lives on your phone' })).toBeVisible();
    // The QR codes load on demand; React reveals lazily loaded content on its own timers.
    await expect(async () => {
      await page.clock.runFor(500);
      await expect(page.getByRole('img', { name: /^QR code/ })).toHaveCount(2, { timeout: 500 });
    }).toPass();
    await expect(page.getByRole('img', { name: 'QR code to download Skanova on the App Store' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'QR code to get Skanova on Google Play' })).toBeVisible();
    // The Google Play code carries the install referrer too.
    const playQr = page.getByRole('link', { name: 'Android — Google Play' });
    await expect(playQr).toHaveAttribute('href', new RegExp(`referrer=.*${TRACKING_ID}`));

    await page.clock.runFor(30_000);
    await expectOnLanding(page);
    expect(appAttempts).toEqual([]);
    await expectNoCspViolation(page);
    // axe waits on timers of its own.
    await page.clock.resume();
    await waitForConsentBar(page, 'Your privacy');
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations).toEqual([]);
    await page.context().close();
  });
});

test.describe('addresses', () => {
  const cases = [
    { path: `/ref/${CODE}`, code: CODE },
    { path: `/app/ref/${CODE}`, code: CODE },
    { path: `/download?ref=${CODE}`, code: CODE },
    { path: '/app/download', code: null },
    { path: `/app/download/${CODE}`, code: CODE },
    { path: '/download', code: null },
  ];
  for (const { path, code } of cases) {
    test(`${path} shows the landing${code ? ' with its code' : ''}, kept out of search engines`, async ({
      browser,
    }) => {
      const { page, consoleErrors } = await visit(browser, 'desktop', path);
      await expect(page.getByRole('heading', { level: 1, name: 'Get the Skanova app' })).toBeVisible();
      if (code) await expect(page.getByText(`Invited with code ${code}`)).toBeVisible();
      else await expect(page.getByText(/Invited with code/)).toHaveCount(0);
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /^noindex/);
      // A computer sees both stores (and their QR codes at the end of the countdown).
      await expect(page.getByRole('link', { name: 'Download on the App Store' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Get it on Google Play' })).toBeVisible();
      // The web app keeps a referral's code; a plain download link carries none.
      await expectWebAppLink(page, 'Open the web app', path.startsWith('/app/download') ? null : code);
      await expectNoCspViolation(page);
      expect(consoleErrors).toEqual([]);
      await page.context().close();
    });
  }

  test('speaks French to a French browser and passes axe on a phone', async ({ browser }) => {
    const { page } = await visit(browser, 'android', `/ref/${CODE}`, { locale: 'fr-FR' });
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(page.getByRole('heading', { level: 1, name: "Téléchargez l'application Skanova" })).toBeVisible();
    await expect(page.getByText(`Code d'invitation\u00a0: ${CODE}`)).toBeVisible();
    await expect(page.locator('.landing__status')).toHaveText("Ouverture de l'application dans 5…");
    await expect(page.getByRole('button', { name: "Ouvrir l'application" })).toBeVisible();
    expect((await storeBadges(page)).map((badge) => [badge.name, badge.lines])).toEqual([
      ['Disponible sur Google Play', ['DISPONIBLE SUR', 'Google Play']],
    ]);
    await expect(page.getByRole('heading', { level: 2, name: 'Ou essayez dans votre navigateur' })).toBeVisible();
    await expectWebAppLink(page, "Ouvrir l'application web", CODE);
    // Past the app attempt, with the page hidden (no store redirect), the clock may run for axe.
    await page.clock.runFor(5000);
    await expect(page.getByRole('status')).toHaveText(/^Ouverture de l'application…/);
    await page.evaluate(() => window.dispatchEvent(new Event('pagehide')));
    await page.clock.resume();
    await waitForConsentBar(page, 'Votre vie privée');
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations).toEqual([]);
    await page.context().close();
  });
});
