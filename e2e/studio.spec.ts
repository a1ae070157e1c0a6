import { mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, type Page, type Request, expect, test } from '@playwright/test';
import { CONSENT_COOKIE } from '@skanova/shared/site/constants';
import { BASE_URL, chromiumArgs } from '../playwright.config';
import { expectNoAxeViolations } from './helpers/axe';
import { type Lang, strings } from './helpers/i18n';
import { jpegToY4m } from './helpers/y4m';

// The web app (issue 11): from the home page's "Get started" to a six-zone analysis computed in the
// browser, saved on the device — in both languages, on a phone and a desktop, from a file and from
// the camera. Throughout, the app's pages reach no other host and send no image data anywhere.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = path.join(ROOT, 'packages/skin/test/fixtures');
const FACE_PHOTO = path.join(FIXTURES, 'face-sample3-a.jpg');
const CAT_PHOTO = path.join(FIXTURES, 'chelsea.jpg');
/** The first visit downloads and compiles the models (several seconds on a busy 2-core machine). */
const ANALYSIS_TIMEOUT = 90_000;
const SIZES = [
  { name: 'phone', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

// Chromium's fake camera plays a face photo. Contexts that grant the camera permission get it; the
// others are refused, as when a visitor answers "block".
const FAKE_CAMERA_VIDEO = path.join(ROOT, `test-results/face-${process.env.E2E_PORT ?? 3100}.y4m`);
mkdirSync(path.dirname(FAKE_CAMERA_VIDEO), { recursive: true });
jpegToY4m(FACE_PHOTO, `${FAKE_CAMERA_VIDEO}.${process.pid}`);
renameSync(`${FAKE_CAMERA_VIDEO}.${process.pid}`, FAKE_CAMERA_VIDEO);
test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      ...chromiumArgs,
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${FAKE_CAMERA_VIDEO}`,
    ],
  },
});

/** Every request the pages and their worker make, for the privacy checks at the end of each test. */
function recordRequests(context: BrowserContext): Request[] {
  const requests: Request[] = [];
  context.on('request', (request) => requests.push(request));
  return requests;
}

const IMAGE_SIGNATURES = [Buffer.from([0xff, 0xd8, 0xff]), Buffer.from('\x89PNG', 'latin1'), Buffer.from('RIFF')];

/** Zero requests to other hosts; no request body that could carry an image. */
function expectPrivate(requests: Request[]) {
  const foreign = requests
    .map((request) => request.url())
    .filter((url) => !url.startsWith(`${BASE_URL}/`) && !url.startsWith('blob:') && !url.startsWith('data:'));
  expect(foreign, 'requests to other hosts').toEqual([]);
  for (const request of requests) {
    const body = request.postDataBuffer();
    if (!body) continue;
    expect(body.length, `${request.method()} ${request.url()}`).toBeLessThan(8 * 1024);
    const text = body.toString('latin1');
    expect(text, request.url()).not.toMatch(/data:image|base64/i);
    for (const signature of IMAGE_SIGNATURES) expect(body.includes(signature), request.url()).toBe(false);
  }
}

async function openContext(context: BrowserContext) {
  // The site's cookie banner was answered earlier; it is not what this story is about.
  await context.addCookies([{ name: CONSENT_COOKIE, value: 'denied', url: BASE_URL }]);
}

/** Home page "Get started" → the app → consent before the first scan → the app's home. */
async function startFromHomePage(page: Page, lang: Lang) {
  const t = strings(lang, 'studio');
  await page.goto(`/?lang=${lang}`);
  await page.getByRole('link', { name: strings(lang, 'home').hero.getStarted }).click();
  await expect(page).toHaveURL(/\/studio$/);
  await expect(page.getByRole('heading', { level: 1, name: t.consent.title })).toBeVisible();
  await expectNoAxeViolations(page, `consent (${lang})`);
  // Both boxes are required: submitting without them says so.
  await page.getByRole('button', { name: t.consent.submit }).click();
  await expect(page.getByText(t.consent.ageRequired)).toBeVisible();
  await page.getByRole('checkbox', { name: t.consent.ageLabel }).check();
  await page.getByRole('checkbox', { name: t.consent.consentLabel }).check();
  await page.getByRole('button', { name: t.consent.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: t.home.title })).toBeVisible();
  await expect(page.getByText(t.home.noScans)).toBeVisible();
}

async function expectSixZoneResult(page: Page, lang: Lang) {
  const t = strings(lang, 'studio');
  await expect(page.getByRole('heading', { level: 1, name: t.result.title })).toBeVisible({
    timeout: ANALYSIS_TIMEOUT,
  });
  const zones = page.getByRole('region', { name: t.result.zonesTitle }).getByRole('listitem');
  // Forehead, both cheeks, eye area, nose, chin and lip contour: the six zones of the spec.
  await expect(zones).toHaveCount(7);
  for (const title of Object.values(t.zoneTitles) as string[])
    await expect(zones.getByRole('heading', { name: title })).toBeVisible();
  await expect(page.getByText(t.result.disclaimer.replace('{{brand}}', 'Skanova'))).toBeVisible();
  await expect(page.getByRole('img', { name: t.result.photoAlt })).toBeVisible();
}

for (const lang of ['fr', 'en'] as const) {
  const t = strings(lang, 'studio');

  for (const size of SIZES) {
    test(`${lang} ${size.name}: Get started → consent → a photo → six zones → saved, still there after a reload`, async ({
      browser,
    }) => {
      test.setTimeout(180_000);
      const context = await browser.newContext({ viewport: size, locale: lang === 'fr' ? 'fr-FR' : 'en-GB' });
      await openContext(context);
      const requests = recordRequests(context);
      const page = await context.newPage();
      await startFromHomePage(page, lang);
      await expectNoAxeViolations(page, `app home (${lang})`);

      await page.getByRole('link', { name: t.home.newScan }).click();
      await expect(page.getByRole('heading', { level: 1, name: t.scan.title })).toBeVisible();
      await expectNoAxeViolations(page, `capture (${lang})`);
      await page.getByLabel(t.scan.uploadPhoto).setInputFiles(FACE_PHOTO);
      await expectSixZoneResult(page, lang);
      await expectNoAxeViolations(page, `result (${lang})`);

      // The zones can be hidden.
      await page.getByRole('checkbox', { name: t.result.hideZones }).check();
      await expect(page.getByRole('img', { name: t.result.photoAltHidden, exact: true })).toBeVisible();
      await page.getByRole('checkbox', { name: t.result.hideZones }).uncheck();

      await page.getByRole('button', { name: t.result.save }).click();
      await expect(page.getByText(t.result.saved)).toBeVisible();

      await page.goto('/studio');
      await expect(page.getByRole('heading', { level: 2, name: t.home.savedTitle })).toBeVisible();
      const saved = page.getByRole('region', { name: t.home.savedTitle }).getByRole('link');
      await expect(saved).toHaveCount(1);
      await expectNoAxeViolations(page, `app home with a saved scan (${lang})`);
      await saved.click();
      await expectSixZoneResult(page, lang);
      await expectNoAxeViolations(page, `saved result (${lang})`);

      expectPrivate(requests);
      await context.close();
    });
  }

  test(`${lang}: a photo without a face is refused, with the reason`, async ({ browser }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext({ locale: lang === 'fr' ? 'fr-FR' : 'en-GB' });
    await openContext(context);
    const requests = recordRequests(context);
    const page = await context.newPage();
    await startFromHomePage(page, lang);
    await page.getByRole('link', { name: t.home.newScan }).click();
    await page.getByLabel(t.scan.uploadPhoto).setInputFiles(CAT_PHOTO);
    const refusal = page.getByRole('alert').filter({ hasText: t.scan.refused.title });
    await expect(refusal).toBeVisible({ timeout: ANALYSIS_TIMEOUT });
    await expect(refusal.getByRole('listitem')).toHaveText([t.gates.problems.noFace]);
    await expectNoAxeViolations(page, `refused (${lang})`);
    await refusal.getByRole('button', { name: t.scan.refused.tryAgain }).click();
    await expect(page.getByLabel(t.scan.uploadPhoto)).toBeAttached();
    expectPrivate(requests);
    await context.close();
  });

  test(`${lang}: a refused camera says so and offers the upload`, async ({ browser }) => {
    // The camera permission is not granted: the browser refuses, as when a visitor blocks it.
    const context = await browser.newContext({ locale: lang === 'fr' ? 'fr-FR' : 'en-GB' });
    await openContext(context);
    const page = await context.newPage();
    await startFromHomePage(page, lang);
    await page.getByRole('link', { name: t.home.newScan }).click();
    await page.getByRole('button', { name: t.scan.useCamera }).click();
    await expect(page.getByRole('alert')).toHaveText(t.scan.cameraProblem.denied);
    await expect(page.getByLabel(t.scan.uploadPhoto)).toBeAttached();
    await expect(page.getByRole('button', { name: t.scan.useCamera })).toHaveCount(0);
    await context.close();
  });

  test(`${lang}: withdrawing consent deletes everything the app stored`, async ({ browser }) => {
    const context = await browser.newContext({ locale: lang === 'fr' ? 'fr-FR' : 'en-GB' });
    await openContext(context);
    const page = await context.newPage();
    await startFromHomePage(page, lang);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: t.home.withdraw }).click();
    await expect(page.getByText(t.home.withdrawn)).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: t.consent.title })).toBeVisible();
    expect(await page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name))).toEqual([]);
    // Without consent the capture page sends the visitor back to it.
    await page.goto('/studio/scan');
    await expect(page).toHaveURL(/\/studio$/);
    await context.close();
  });
}

test.describe('the camera', () => {
  for (const lang of ['fr', 'en'] as const) {
    const t = strings(lang, 'studio');
    test(`${lang}: live guidance, the shutter once every gate passes, then the result`, async ({ browser }) => {
      test.setTimeout(180_000);
      const context = await browser.newContext({
        viewport: lang === 'fr' ? SIZES[0] : SIZES[1],
        locale: lang === 'fr' ? 'fr-FR' : 'en-GB',
        permissions: ['camera'],
      });
      await openContext(context);
      const requests = recordRequests(context);
      const page = await context.newPage();
      await startFromHomePage(page, lang);
      await page.getByRole('link', { name: t.home.newScan }).click();
      await page.getByRole('button', { name: t.scan.useCamera }).click();
      await expect(page.getByLabel(t.scan.camera.preview)).toBeVisible();
      const shutter = page.getByRole('button', { name: t.scan.camera.shutter });
      await expect(page.getByRole('status')).toContainText(t.scan.camera.ready, { timeout: ANALYSIS_TIMEOUT });
      await expect(shutter).toBeEnabled();
      await expectNoAxeViolations(page, `camera (${lang})`);
      await shutter.click();
      await expectSixZoneResult(page, lang);
      expectPrivate(requests);
      await context.close();
    });
  }
});
