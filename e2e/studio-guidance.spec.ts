import { expect, test } from '@playwright/test';
import { strings } from './helpers/i18n';
import { answerCookieBanner, fakeCamera, FAR_FACE_PHOTO, startFromHomePage } from './helpers/studio';

// Live guidance (docs/product/web-app.md#capture-and-gates): the camera shows a face too small in the frame; the app says what to
// fix in the visitor's language, and the shutter stays disabled.

test.use({ launchOptions: fakeCamera(FAR_FACE_PHOTO) });

for (const lang of ['fr', 'en'] as const) {
  const t = strings(lang, 'studio');
  test(`${lang}: a failing gate is named in plain words and the shutter waits`, async ({ browser }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext({ locale: lang === 'fr' ? 'fr-FR' : 'en-GB', permissions: ['camera'] });
    await answerCookieBanner(context);
    const page = await context.newPage();
    await startFromHomePage(page, lang);
    await page.getByRole('link', { name: t.home.newScan }).click();
    await page.getByRole('button', { name: t.scan.useCamera }).click();
    const guidance = page.getByRole('list', { name: t.gates.guidanceLabel });
    await expect(guidance).toContainText(t.gates.problems.tooFar, { timeout: 90_000 });
    await expect(page.getByRole('button', { name: t.scan.camera.shutter })).toBeDisabled();
    await context.close();
  });
}
