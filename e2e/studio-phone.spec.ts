import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Locator, type Page, expect, test } from '@playwright/test';
import { encodeJpeg, readImage } from '../packages/skin/test/images';
import { blur } from '../packages/skin/test/variants';
import { expectNoAxeViolations } from './helpers/axe';
import { type Lang, strings } from './helpers/i18n';
import { expectHealthy, watchPageHealth } from './helpers/page-health';
import {
  ANALYSIS_TIMEOUT,
  FACE_PHOTO,
  answerCookieBanner,
  expectPrivate,
  fakeCamera,
  recordRequests,
  startFromHomePage,
} from './helpers/studio';

// The studio on a phone (docs/product/web-app.md#capture-and-gates, docs/product/web-app.md#before-the-first-scan): after consent the
// home opens at its top with "New scan" in view; every section of the app's menu is in sight and opens;
// with the camera open, its preview, the live guidance (on the preview) and the shutter are all on the
// screen without scrolling; a refused file is shown with what to change in it, in a file's words. On two
// phones and a desktop, in both languages, with Chromium's fake camera.

test.use({ launchOptions: fakeCamera(FACE_PHOTO) });

const SIZES = [
  { width: 375, height: 812 },
  { width: 360, height: 740 },
  { width: 1280, height: 800 },
] as const;

/** A face photo refused for one reason only: blurred (as in packages/skin/test/pipeline.test.ts). */
const BLURRED_PHOTO = path.resolve(`test-results/blurred-face-${process.env.E2E_PORT ?? 3100}.jpg`);
writeFileSync(BLURRED_PHOTO, encodeJpeg(blur(readImage('face-sample6-a.jpg'), 2.5), 92));

const SECTIONS = ['scans', 'journal', 'consultation', 'routine', 'data'] as const;

/** `inner` lies within `outer` on the page. */
async function expectInside(inner: Locator, outer: Locator, what: string) {
  const [a, b] = [await inner.boundingBox(), await outer.boundingBox()];
  expect(a && b, what).toBeTruthy();
  expect(a!.x >= b!.x && a!.y >= b!.y, what).toBe(true);
  expect(a!.x + a!.width <= b!.x + b!.width && a!.y + a!.height <= b!.y + b!.height, what).toBe(true);
}

async function everySectionReachable(page: Page, lang: Lang) {
  const t = strings(lang, 'studio');
  const nav = page.getByRole('navigation', { name: t.layout.nav.label });
  for (const key of SECTIONS) {
    const link = nav.getByRole('link', { name: t.layout.nav[key], exact: true });
    // In sight, whole, not hidden in a row that scrolls sideways.
    await expect(link, key).toBeInViewport({ ratio: 1 });
    await link.click();
    await expect(link, key).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
}

for (const lang of ['fr', 'en'] as const) {
  const t = strings(lang, 'studio');

  for (const size of SIZES) {
    test(`${lang} ${size.width}×${size.height}: New scan in view after consent, every section reachable, the camera on one screen, a refused file shown with a file's advice`, async ({
      browser,
    }) => {
      test.setTimeout(180_000);
      const context = await browser.newContext({
        viewport: size,
        locale: lang === 'fr' ? 'fr-FR' : 'en-GB',
        permissions: ['camera'],
      });
      await answerCookieBanner(context);
      const requests = recordRequests(context);
      const page = await context.newPage();
      const health = await watchPageHealth(page);

      // The consent's button is at the end of a long form: the home still opens at its top.
      await startFromHomePage(page, lang);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      await expect(page.getByRole('link', { name: t.home.newScan })).toBeInViewport({ ratio: 1 });
      await expect(page.getByRole('heading', { level: 1, name: t.home.title })).toBeFocused();
      // Withdrawing stays within reach, at the end of the page, a secondary action.
      const withdraw = page.getByRole('button', { name: t.home.withdraw });
      await expect(withdraw).toBeAttached();
      if (size.width < 640) await expect(withdraw).not.toBeInViewport();
      await expect(withdraw).not.toHaveClass(/button--danger|button--primary/);
      await expectNoAxeViolations(page, `app home after consent (${lang}, ${size.width} px)`);

      await everySectionReachable(page, lang);

      await page
        .getByRole('navigation', { name: t.layout.nav.label })
        .getByRole('link', { name: t.layout.nav.scans })
        .click();
      await page.getByRole('link', { name: t.home.newScan }).click();
      await page.getByRole('button', { name: t.scan.useCamera }).click();
      const guidance = page.getByRole('status');
      await expect(guidance).toContainText(t.scan.camera.ready, { timeout: ANALYSIS_TIMEOUT });
      const preview = page.getByLabel(t.scan.camera.preview);
      const shutter = page.getByRole('button', { name: t.scan.camera.shutter });
      await expect(shutter).toBeEnabled();
      // Preview, guidance and shutter on the screen as the camera opened, nothing scrolled by hand.
      for (const [what, element] of [
        ['preview', preview],
        ['guidance', guidance],
        ['shutter', shutter],
      ] as const)
        await expect(element, what).toBeInViewport({ ratio: 1 });
      await expectInside(guidance, preview, 'the guidance is on the preview');
      await expect(page.getByRole('button', { name: t.scan.camera.close })).toBeInViewport({ ratio: 1 });
      await expectNoAxeViolations(page, `camera (${lang}, ${size.width} px)`);
      await page.getByRole('button', { name: t.scan.camera.close }).click();

      // A blurred file: its photo, and a file's advice — which photo to choose, not "hold still".
      await page.getByLabel(t.scan.uploadPhoto).setInputFiles(BLURRED_PHOTO);
      const refusal = page.getByRole('alert').filter({ hasText: t.scan.refused.title });
      await expect(refusal).toBeVisible({ timeout: ANALYSIS_TIMEOUT });
      await expect(refusal.getByRole('listitem')).toHaveText([t.gates.fileProblems.blurred]);
      await expect(refusal).not.toContainText(t.gates.problems.blurred);
      const photo = refusal.getByRole('img', { name: t.scan.refused.photoAlt });
      await expect(photo).toBeInViewport();
      expect(await photo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
      await expectNoAxeViolations(page, `refused file (${lang}, ${size.width} px)`);
      await refusal.getByRole('button', { name: t.scan.refused.tryAgain }).click();
      await expect(page.getByLabel(t.scan.uploadPhoto)).toBeAttached();

      expectHealthy(health, `the studio on ${size.width} px (${lang})`);
      expectPrivate(requests);
      await context.close();
    });
  }
}
