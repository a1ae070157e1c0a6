import { type Page, expect, test } from '@playwright/test';
import { ANALYSIS_TIMINGS } from '../apps/web/app/features/studio/analysis-protocol';
import { expectNoAxeViolations } from './helpers/axe';
import { type Lang, fill, strings } from './helpers/i18n';
import { expectHealthy, watchPageHealth } from './helpers/page-health';
import {
  ANALYSIS_TIMEOUT,
  CAT_PHOTO,
  FACE_PHOTO,
  answerCookieBanner,
  expectPrivate,
  fakeCamera,
  recordRequests,
  startFromHomePage,
  STUDIO_SIZES,
  studioSizesFor,
} from './helpers/studio';

// The web app (docs/product/web-app.md#the-promise): from the home page's "Get started" to a six-zone analysis computed in the
// browser, saved on the device — in both languages, on a phone and a desktop, from a file and from
// the camera. Throughout, the app's pages reach no other host and send no image data anywhere.

// Chromium's fake camera plays a selfie that passes every gate.
test.use({ launchOptions: fakeCamera(FACE_PHOTO) });

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

/**
 * The inference backend of the page's last analysis. This browser has no GPU: its WebGL is a software
 * renderer, 20 times slower than WebAssembly for the face model, so the app must choose WebAssembly.
 */
function lastAnalysisBackend(page: Page) {
  return page.evaluate(
    (name) => (performance.getEntriesByName(name).at(-1) as PerformanceMeasure | undefined)?.detail?.backend,
    ANALYSIS_TIMINGS.total,
  );
}

/** What the device keeps of each saved scan (read from IndexedDB as the app wrote it). */
function savedScans(page: Page) {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('skanova-studio');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('scans').objectStore('scans').getAll();
          all.onerror = () => reject(all.error);
          all.onsuccess = () => {
            open.result.close();
            resolve(
              (
                all.result as {
                  analysis: { zones: unknown[] };
                  landmarks: Float32Array;
                  thumbnail?: Blob;
                  photo?: Blob;
                }[]
              ).map((scan) => ({
                zones: scan.analysis.zones.length,
                // Stored packed, x then y (storage.ts, version 3).
                landmarks: scan.landmarks.length / 2,
                thumbnail: scan.thumbnail instanceof Blob,
                photo: scan.photo instanceof Blob,
              })),
            );
          };
        };
      }),
  );
}

for (const lang of ['fr', 'en'] as const) {
  const t = strings(lang, 'studio');

  for (const size of studioSizesFor(lang)) {
    test(`${lang} ${size.name}: Get started → consent → a photo → six zones → saved, still there after a reload`, async ({
      browser,
    }) => {
      test.setTimeout(180_000);
      const context = await browser.newContext({ viewport: size, locale: lang === 'fr' ? 'fr-FR' : 'en-GB' });
      await answerCookieBanner(context);
      const requests = recordRequests(context);
      const page = await context.newPage();
      const health = await watchPageHealth(page);
      await startFromHomePage(page, lang);
      await expectNoAxeViolations(page, `app home (${lang})`);

      await page.getByRole('link', { name: t.home.newScan }).click();
      await expect(page.getByRole('heading', { level: 1, name: t.scan.title })).toBeVisible();
      await expectNoAxeViolations(page, `capture (${lang})`);
      await page.getByLabel(t.scan.uploadPhoto).setInputFiles(FACE_PHOTO);
      await expectSixZoneResult(page, lang);
      expect(await lastAnalysisBackend(page)).toBe('wasm');
      await expectNoAxeViolations(page, `result (${lang})`);

      // The zones can be hidden.
      await page.getByRole('checkbox', { name: t.result.hideZones }).check();
      await expect(page.getByRole('img', { name: t.result.photoAltHidden, exact: true })).toBeVisible();
      await page.getByRole('checkbox', { name: t.result.hideZones }).uncheck();

      // On the desktop the visitor also keeps the photo; on the phone only the scores, zones and a preview.
      const keepPhoto = size.name === 'desktop';
      if (keepPhoto) await page.getByRole('checkbox', { name: t.result.keepPhoto }).check();
      await page.getByRole('button', { name: t.result.save }).click();
      await expect(page.getByText(t.result.saved)).toBeVisible();
      expect(await savedScans(page)).toEqual([{ zones: 7, landmarks: 478, thumbnail: true, photo: keepPhoto }]);

      await page.goto('/studio');
      await expect(page.getByRole('heading', { level: 2, name: t.home.savedTitle })).toBeVisible();
      const saved = page.getByRole('region', { name: t.home.savedTitle }).getByRole('link');
      await expect(saved).toHaveCount(1);
      await expectNoAxeViolations(page, `app home with a saved scan (${lang})`);
      await saved.click();
      await expectSixZoneResult(page, lang);
      await expectNoAxeViolations(page, `saved result (${lang})`);

      expectHealthy(health, `the app (${lang}, ${size.name})`);
      expectPrivate(requests);
      await context.close();
    });
  }

  test(`${lang}: a photo without a face is refused, shown with what to change in it`, async ({ browser }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext({ locale: lang === 'fr' ? 'fr-FR' : 'en-GB' });
    await answerCookieBanner(context);
    const requests = recordRequests(context);
    const page = await context.newPage();
    await startFromHomePage(page, lang);
    await page.getByRole('link', { name: t.home.newScan }).click();
    await page.getByLabel(t.scan.uploadPhoto).setInputFiles(CAT_PHOTO);
    const refusal = page.getByRole('alert').filter({ hasText: t.scan.refused.title });
    await expect(refusal).toBeVisible({ timeout: ANALYSIS_TIMEOUT });
    // A file's advice (which photo to choose), not the camera's; the photo itself, from the page's memory.
    await expect(refusal.getByRole('listitem')).toHaveText([t.gates.fileProblems.noFace]);
    await expect(refusal.getByRole('img', { name: t.scan.refused.photoAlt })).toHaveJSProperty('complete', true);
    expect(await refusal.getByRole('img', { name: t.scan.refused.photoAlt }).getAttribute('src')).toMatch(/^blob:/);
    await expectNoAxeViolations(page, `refused (${lang})`);
    await refusal.getByRole('button', { name: t.scan.refused.tryAgain }).click();
    await expect(page.getByLabel(t.scan.uploadPhoto)).toBeAttached();
    expectPrivate(requests);
    await context.close();
  });

  test(`${lang}: a refused camera says so and offers the upload`, async ({ browser }) => {
    // The camera permission is not granted: the browser refuses, as when a visitor blocks it.
    const context = await browser.newContext({ locale: lang === 'fr' ? 'fr-FR' : 'en-GB' });
    await answerCookieBanner(context);
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
    await answerCookieBanner(context);
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

test('the language toggle switches the app in place, and the choice is remembered', async ({ page, context }) => {
  await answerCookieBanner(context);
  const [fr, en] = [strings('fr', 'studio'), strings('en', 'studio')];
  await page.goto('/studio?lang=fr');
  await expect(page.getByRole('heading', { level: 1, name: fr.consent.title })).toBeVisible();
  await page.getByRole('button', { name: strings('fr').language.switchTo }).click();
  await expect(page.getByRole('heading', { level: 1, name: en.consent.title })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: en.consent.ageLabel })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.goto('/studio');
  await expect(page.getByRole('heading', { level: 1, name: en.consent.title })).toBeVisible();
});

test.describe('the camera', () => {
  for (const lang of ['fr', 'en'] as const) {
    const t = strings(lang, 'studio');
    test(`${lang}: live guidance, the shutter once every gate passes, the result, then the last scan's light as the target`, async ({
      browser,
    }) => {
      test.setTimeout(180_000);
      const context = await browser.newContext({
        viewport: lang === 'fr' ? STUDIO_SIZES[0] : STUDIO_SIZES[1],
        locale: lang === 'fr' ? 'fr-FR' : 'en-GB',
        permissions: ['camera'],
      });
      await answerCookieBanner(context);
      const requests = recordRequests(context);
      const page = await context.newPage();
      const health = await watchPageHealth(page);
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
      // Saved, then a new scan: the camera shows the last scan's light as the target, and this is the same.
      await page.getByRole('button', { name: t.result.save }).click();
      await expect(page.getByText(t.result.saved)).toBeVisible();
      await page.getByRole('button', { name: t.result.newScan }).click();
      await page.getByRole('button', { name: t.scan.useCamera }).click();
      await expect(page.getByRole('status')).toContainText(t.scan.target.title, { timeout: ANALYSIS_TIMEOUT });
      await expect(page.getByRole('status')).toContainText(t.scan.target.same);
      await expectNoAxeViolations(page, `camera with the last scan's light (${lang})`);
      expectHealthy(health, `the camera (${lang})`);
      expectPrivate(requests);
      await context.close();
    });
  }
});

// The result reads in five seconds (docs/product/web-app.md#result): at most three takeaways before
// any score; on a phone the details folded under them; the zones on the photo, each reachable by
// keyboard through the legend, with its scores; a second scan taken alike reads "no real change",
// and says why when asked.
test.describe('the result', () => {
  for (const lang of ['fr', 'en'] as const) {
    const t = strings(lang, 'studio');
    for (const size of studioSizesFor(lang)) {
      test(`${lang} ${size.name}: takeaways first, details ${size.name === 'phone' ? 'folded' : 'open'}, a zone by keyboard, then "no real change" since the same photo`, async ({
        browser,
      }) => {
        test.setTimeout(180_000);
        const context = await browser.newContext({
          viewport: size,
          locale: lang === 'fr' ? 'fr-FR' : 'en-GB',
          timezoneId: 'UTC',
        });
        await answerCookieBanner(context);
        const requests = recordRequests(context);
        const page = await context.newPage();
        await startFromHomePage(page, lang);
        await page.getByRole('link', { name: t.home.newScan }).click();
        await page.getByLabel(t.scan.uploadPhoto).setInputFiles(FACE_PHOTO);
        await expectSixZoneResult(page, lang);

        // At most three takeaways, in words, before the first score.
        const inShort = page.getByRole('region', { name: t.result.takeaways.title });
        const takeaways = inShort.getByRole('list').first().locator(':scope > li');
        await expect(takeaways).toHaveCount(3);
        await expect(takeaways.nth(1)).toHaveText(t.result.takeaways.since.first);
        await expect(takeaways.nth(2)).toContainText(t.result.takeaways.next.toQuestionnaire);
        const zones = page.getByRole('region', { name: t.result.zonesTitle });
        // Found whether folded or not (a folded panel is hidden from the accessibility tree).
        const firstScore = zones.locator('dd').first();
        expect(
          await inShort.evaluate(
            (region, score) => Boolean(region.compareDocumentPosition(score!) & Node.DOCUMENT_POSITION_FOLLOWING),
            await firstScore.elementHandle(),
          ),
          'the takeaways come before the first score',
        ).toBe(true);
        const top = async (locator: typeof inShort) => (await locator.boundingBox())!.y;
        expect(await top(inShort)).toBeLessThan(await top(zones));

        // On a phone every zone's scores and every metric's meaning are folded; on a desktop open.
        const phone = size.name === 'phone';
        for (const title of Object.values(t.zoneTitles) as string[]) {
          const toggle = zones.getByRole('button', { name: title });
          await expect(toggle).toHaveAttribute('aria-expanded', String(!phone));
        }
        await expect(firstScore).toBeVisible({ visible: !phone });
        const meanings = page.getByRole('region', { name: t.result.metricsTitle });
        await expect(meanings.getByText(t.metrics.redness.means)).toBeVisible({ visible: !phone });
        // Each metric says its direction once, in words, even folded.
        await expect(meanings.getByText(t.reading.higher.evenness)).toBeVisible();
        if (phone) {
          await zones.getByRole('button', { name: t.zoneTitles.nose }).click();
          await expect(zones.getByRole('button', { name: t.zoneTitles.nose })).toHaveAttribute('aria-expanded', 'true');
        }

        // The zones on the photo: the legend's names take the keyboard; a focused zone shows its scores.
        const legend = page.getByRole('list', { name: t.result.legend });
        await expect(legend.getByRole('button')).toHaveCount(7);
        await legend.getByRole('button', { name: t.zoneTitles.forehead }).focus();
        await page.keyboard.press('Tab');
        await expect(legend.getByRole('button', { name: t.zoneTitles.leftCheek })).toBeFocused();
        const chosen = page.getByRole('region', {
          name: fill(t.result.zoneScores, { zone: t.zoneTitles.leftCheek }),
        });
        await expect(chosen).toBeVisible();
        await expect(chosen.getByRole('term')).toHaveText(
          ['redness', 'evenness', 'shine', 'texture'].map((metric) => t.metrics[metric].title),
        );
        await expect(legend.getByRole('button', { name: t.zoneTitles.leftCheek })).toHaveAttribute(
          'aria-pressed',
          'true',
        );
        await expectNoAxeViolations(page, `result with a zone chosen (${lang})`);

        // Saved, then the same photo again: taken alike, nothing really changed — and why, when asked.
        await page.getByRole('button', { name: t.result.save }).click();
        await expect(page.getByText(t.result.saved)).toBeVisible();
        await page.getByRole('button', { name: t.result.newScan }).click();
        await page.getByLabel(t.scan.uploadPhoto).setInputFiles(FACE_PHOTO);
        await expectSixZoneResult(page, lang);
        const again = page.getByRole('region', { name: t.result.takeaways.title });
        const date = new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date());
        await expect(again.getByText(fill(t.result.takeaways.since.none, { date }))).toBeVisible();
        await again.getByText(t.reading.why.question).click();
        await expect(again.getByText(t.reading.why.photo)).toBeVisible();
        // No change is coloured: within the floor every score reads "no real change".
        await expect(page.locator('.journal-verdict--better, .journal-verdict--worse')).toHaveCount(0);
        await expectNoAxeViolations(page, `second result (${lang})`);
        await again.getByRole('link', { name: t.result.takeaways.next.toQuestionnaire }).click();
        await expect(page.getByRole('heading', { level: 1, name: t.consultation.title })).toBeVisible();
        expectPrivate(requests);
        await context.close();
      });
    }
  }
});
