import { type BrowserContext, type Page, expect, test } from '@playwright/test';
import { journalEntries, journalTemplate } from '../bench/lib/journal-records.ts';
import { type JournalTemplate, seedJournal } from '../bench/lib/journal-seed.ts';
import { STUDIO_PAGES } from '../packages/shared/src/studio/constants';
import { RETURNING_HINT_KEY } from '../apps/web/app/features/studio/returning-hint';
import { expectNoAxeViolations } from './helpers/axe';
import { type Lang, strings } from './helpers/i18n';
import { expectHealthy, watchPageHealth } from './helpers/page-health';
import {
  ANALYSIS_TIMEOUT,
  CAT_PHOTO,
  FACE_PHOTO,
  answerCookieBanner,
  expectPrivate,
  recordRequests,
} from './helpers/studio';

// Every page of the studio (docs/product/web-app.md#where-it-lives, docs/benchmarks.md#web-app-layout-shift):
// - prerendered as a first visit sees it — the consent — so the first paint is the real page, before
//   any of the app's code has run; a device that has consented paints "Reading this device's storage…"
//   instead, from the hint kept beside the consent, and a stale hint gives way to the consent;
// - no axe violation, no console or hydration error, on every page with saved scans: home, capture,
//   a refused photo, a result, a saved result, journal, comparison, consultation, routine, your data.
// Both languages at one width; the geometry at three widths is e2e/studio-phone.spec.ts's.

const PHONE = { width: 375, height: 812 };

/** The app's code (every script file) never arrives: what is painted is the prerendered page alone. */
async function withoutTheAppsCode(page: Page) {
  await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
}

async function phoneContext(browser: import('@playwright/test').Browser, lang: Lang): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: PHONE, locale: lang === 'fr' ? 'fr-FR' : 'en-GB' });
  await answerCookieBanner(context);
  return context;
}

let template: Promise<JournalTemplate> | undefined;

for (const lang of ['fr', 'en'] as const) {
  const t = strings(lang, 'studio');

  test(`${lang}: every page is prerendered with the consent, a consented device paints "Reading…" instead, a stale hint gives way`, async ({
    browser,
  }) => {
    const context = await phoneContext(browser, lang);
    const page = await context.newPage();
    await withoutTheAppsCode(page);
    const consentTitle = page.getByRole('heading', { level: 1, name: t.consent.title });
    const reading = page.getByText(t.home.loading);
    for (const path of STUDIO_PAGES) {
      await page.goto(`${path}?lang=${lang}`);
      await expect(consentTitle, path).toBeVisible();
      await expect(page.getByRole('checkbox', { name: t.consent.ageLabel }), path).toBeVisible();
      await expect(page.getByRole('button', { name: t.consent.submit }), path).toBeVisible();
      await expect(reading, path).toBeHidden();
    }

    // A device that has consented: the same pages paint the wait, not the consent.
    await page.evaluate((key) => localStorage.setItem(key, '1'), RETURNING_HINT_KEY);
    for (const path of STUDIO_PAGES) {
      await page.goto(`${path}?lang=${lang}`);
      await expect(reading, path).toBeVisible();
      await expect(consentTitle, path).toBeHidden();
    }

    // With the app's code, the device answers: no consent here after all, so the consent, and the hint goes.
    await page.unrouteAll();
    const health = await watchPageHealth(page);
    await page.goto(`/studio/journal?lang=${lang}`);
    await expect(page).toHaveURL(/\/studio$/);
    await expect(consentTitle).toBeVisible();
    await expect(reading).toBeHidden();
    await expect.poll(() => page.evaluate((key) => localStorage.getItem(key), RETURNING_HINT_KEY)).toBeNull();
    // Consenting sets it again.
    await page.getByRole('checkbox', { name: t.consent.ageLabel }).check();
    await page.getByRole('checkbox', { name: t.consent.consentLabel }).check();
    await page.getByRole('button', { name: t.consent.submit }).click();
    await expect(page.getByRole('heading', { level: 1, name: t.home.title })).toBeVisible();
    expect(await page.evaluate((key) => localStorage.getItem(key), RETURNING_HINT_KEY)).toBe('1');
    expectHealthy(health, `the consent and its hint (${lang})`);
    await context.close();
  });

  test(`${lang} ${PHONE.width} px: axe on every page of the studio with saved scans`, async ({ browser }) => {
    test.setTimeout(240_000);
    const context = await phoneContext(browser, lang);
    const requests = recordRequests(context);
    const page = await context.newPage();
    const health = await watchPageHealth(page);
    await page.goto(`/studio?lang=${lang}`);
    await expectNoAxeViolations(page, `consent (${lang})`);
    template ??= journalTemplate();
    const entries = journalEntries(await template, 4);
    await seedJournal(page, await template, entries);
    const [first, last] = [entries[0]!.id, entries.at(-1)!.id];

    const pages = [
      { name: 'home', path: '/studio', title: t.home.title },
      { name: 'saved result', path: `/studio/result?id=${last}` },
      { name: 'journal', path: '/studio/journal' },
      { name: 'comparison', path: `/studio/compare?a=${first}&b=${last}` },
      { name: 'consultation', path: '/studio/consultation' },
      { name: 'routine', path: '/studio/routine' },
      { name: 'your data', path: '/studio/data' },
    ];
    for (const { name, path, title } of pages) {
      await page.goto(path);
      // The device has answered: the page's own content, not the consent.
      await expect(page.getByRole('heading', { level: 1, name: t.consent.title }), name).toBeHidden();
      await expect(page.getByRole('heading', { level: 1, ...(title ? { name: title } : {}) }), name).toBeVisible();
      await expect(page.getByText(t.home.loading), name).toBeHidden();
      await expectNoAxeViolations(page, `${name} (${lang})`);
    }

    // The capture page, a refused photo, then a result.
    await page.goto('/studio/scan');
    const upload = page.getByLabel(t.scan.uploadPhoto);
    await expect(upload).toBeAttached();
    await expectNoAxeViolations(page, `capture (${lang})`);
    await upload.setInputFiles(CAT_PHOTO);
    const refusal = page.getByRole('alert').filter({ hasText: t.scan.refused.title });
    await expect(refusal).toBeVisible({ timeout: ANALYSIS_TIMEOUT });
    await expectNoAxeViolations(page, `refused photo (${lang})`);
    await refusal.getByRole('button', { name: t.scan.refused.tryAgain }).click();
    await page.getByLabel(t.scan.uploadPhoto).setInputFiles(FACE_PHOTO);
    await expect(page.getByRole('region', { name: t.result.takeaways.title })).toBeVisible({
      timeout: ANALYSIS_TIMEOUT,
    });
    await expectNoAxeViolations(page, `result (${lang})`);

    expectHealthy(health, `every page of the studio (${lang})`);
    expectPrivate(requests);
    await context.close();
  });
}

// A tab opened before a deployment names the old chunks, which the new deployment no longer serves; before
// consent no service worker keeps them (features/studio/app-pages.ts `loadOrReload`).
test('a page whose chunk is gone since the tab was opened reloads once, then shows the page; twice, the failure', async ({
  browser,
}) => {
  const t = strings('en', 'studio');
  // No service worker: the old deployment's chunks are asked of the server, which no longer has them.
  const context = await browser.newContext({ viewport: PHONE, locale: 'en-GB', serviceWorkers: 'block' });
  await answerCookieBanner(context);
  const page = await context.newPage();
  // The server no longer has the journal's chunk for the document opened first; the reloaded document
  // gets it. Then, for the last part, never.
  let serve: 'never for this document' | 'yes' | 'never' = 'never for this document';
  let documents = 0;
  page.on('request', (request) => {
    if (!request.isNavigationRequest()) return;
    documents += 1;
    if (documents > 1 && serve === 'never for this document') serve = 'yes';
  });
  await page.route(/\/assets\/journal-page-[^/]*\.js$/, (route) =>
    serve === 'yes' ? route.continue() : route.fulfill({ status: 404, body: 'Not found' }),
  );
  const consent = async () => {
    await page.getByRole('checkbox', { name: t.consent.ageLabel }).check();
    await page.getByRole('checkbox', { name: t.consent.consentLabel }).check();
    await page.getByRole('button', { name: t.consent.submit }).click();
  };

  await page.goto('/studio?lang=en');
  await consent();
  await expect(page.getByRole('heading', { level: 1, name: t.home.title })).toBeVisible();
  // The journal opened from the menu: its chunk is refused, the page reloads on its own, and the new
  // document's journal arrives.
  await page
    .getByRole('navigation', { name: t.layout.nav.label })
    .getByRole('link', { name: t.layout.nav.journal })
    .click();
  await expect(page.getByRole('heading', { name: t.journal.empty.title })).toBeVisible();
  await expect(page).toHaveURL(/\/studio\/journal/);
  expect(documents).toBe(2);

  // Refused again in a document that is itself a reload: the failure is shown, with no reload loop.
  serve = 'never';
  await page.reload();
  await expect(
    page.getByRole('heading', { level: 1, name: strings('en', 'common').errors.unexpectedTitle }),
  ).toBeVisible();
  // The failure is shown only where the document did not reload (app-pages.ts): no loop.
  expect(documents).toBe(3);
  await context.close();
});

/** How many analysis workers the page started and stopped (counted from before any of its code runs). */
async function countWorkers(context: BrowserContext) {
  await context.addInitScript(() => {
    const counted = { started: 0, stopped: 0 };
    (window as unknown as { workersCounted: typeof counted }).workersCounted = counted;
    const Native = window.Worker;
    window.Worker = new Proxy(Native, {
      construct: (target, args: ConstructorParameters<typeof Worker>) => {
        counted.started += 1;
        return Reflect.construct(target, args) as Worker;
      },
    });
    const terminate = Native.prototype.terminate;
    Native.prototype.terminate = function (this: Worker) {
      counted.stopped += 1;
      terminate.call(this);
    };
  });
}

const workersOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { workersCounted: { started: number; stopped: number } }).workersCounted);

// A device that has consented before loads the models while the capture page's chunk and the device's
// reads are on their way (features/studio/analysis-client.ts `startAnalysisEngineAhead`), and the page
// takes that worker; a stale hint's worker stops when the consent shows instead.
test('a consented device opening the capture page loads the models beside its chunk: one worker, the page takes it', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const t = strings('en', 'studio');
  // No service worker: the page's chunk is asked of the server, where the test holds it back.
  const context = await browser.newContext({ viewport: PHONE, locale: 'en-GB', serviceWorkers: 'block' });
  await answerCookieBanner(context);
  await countWorkers(context);
  const requests = recordRequests(context);
  const page = await context.newPage();
  const health = await watchPageHealth(page);
  const consentTitle = page.getByRole('heading', { level: 1, name: t.consent.title });

  // A stale hint (no consent on the device): the worker started ahead stops as the consent shows. The hint
  // is set before each document's code runs (set from a page, it could be cleared by that page's own read).
  await context.addInitScript((key) => localStorage.setItem(key, '1'), RETURNING_HINT_KEY);
  await page.goto('/studio/scan?lang=en');
  await expect(page).toHaveURL(/\/studio$/);
  await expect(consentTitle).toBeVisible();
  await expect.poll(() => workersOf(page)).toEqual({ started: 1, stopped: 1 });

  await page.getByRole('checkbox', { name: t.consent.ageLabel }).check();
  await page.getByRole('checkbox', { name: t.consent.consentLabel }).check();
  await page.getByRole('button', { name: t.consent.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: t.home.title })).toBeVisible();

  // The capture page opened in a new tab, its chunk held back: the worker's script is asked for all the same.
  const tab = await context.newPage();
  const tabHealth = await watchPageHealth(tab);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await tab.route(/\/assets\/scan-page-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const workerScript = tab.waitForRequest(/\/analysis\.worker-[^/]*\.js$/, { timeout: 30_000 });
  await tab.goto('/studio/scan');
  await workerScript;
  await expect(tab.getByRole('heading', { level: 1, name: t.scan.title })).toBeHidden();
  release();
  await expect(tab.getByRole('heading', { level: 1, name: t.scan.title })).toBeVisible();
  await tab.getByLabel(t.scan.uploadPhoto).setInputFiles(FACE_PHOTO);
  await expect(tab.getByRole('heading', { level: 1, name: t.result.title })).toBeVisible({
    timeout: ANALYSIS_TIMEOUT,
  });
  expect(await workersOf(tab)).toEqual({ started: 1, stopped: 0 });

  expectHealthy(health, 'the stale hint');
  expectHealthy(tabHealth, 'the capture page opened by a consented device');
  expectPrivate(requests);
  await context.close();
});
