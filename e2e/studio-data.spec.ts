import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type Page, expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './helpers/axe';
import { type Lang, strings } from './helpers/i18n';
import { expectHealthy, watchPageHealth } from './helpers/page-health';
import {
  ANALYSIS_TIMEOUT,
  FACE_PHOTO,
  answerCookieBanner,
  expectPrivate,
  recordRequests,
  startFromHomePage,
  studioSizesFor,
} from './helpers/studio';

// "Your data" (docs/product/web-app.md#your-data): two scans, one with its photo → export to a file → delete everything →
// consent again → import the file: the same scans come back, photos byte for byte. A damaged file is
// refused with a message and changes nothing. Throughout, no other host is reached and no request
// carries image data: the file goes from the device to the visitor's downloads and back, only.

/** A second selfie that passes the gates (licence beside the fixtures). */
const SECOND_FACE = path.join(path.dirname(FACE_PHOTO), 'face-sample6-a.jpg');

/** What the device holds of each scan, with SHA-256 digests of its images (read from IndexedDB). */
function deviceScans(page: Page) {
  return page.evaluate(async () => {
    const request = <T>(make: () => IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        const pending = make();
        pending.onsuccess = () => resolve(pending.result);
        pending.onerror = () => reject(pending.error);
      });
    const db = await request(() => indexedDB.open('skanova-studio'));
    const scans = await request(() => db.transaction('scans').objectStore('scans').getAll());
    db.close();
    const digest = async (blob: Blob | undefined) =>
      blob
        ? Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', await blob.arrayBuffer())), (byte) =>
            byte.toString(16).padStart(2, '0'),
          ).join('')
        : null;
    const list = await Promise.all(
      (
        scans as {
          id: string;
          takenAt: string;
          analysis: unknown;
          landmarks: Float32Array;
          thumbnail: Blob;
          photo?: Blob;
        }[]
      ).map(async (scan) => ({
        id: scan.id,
        takenAt: scan.takenAt,
        analysis: JSON.stringify(scan.analysis),
        // Stored packed, x then y (storage.ts, version 3).
        landmarks: scan.landmarks.length / 2,
        thumbnail: await digest(scan.thumbnail),
        photo: await digest(scan.photo),
      })),
    );
    return list.sort((a, b) => a.takenAt.localeCompare(b.takenAt));
  });
}

async function scanAndSave(page: Page, lang: Lang, photo: string, keepPhoto: boolean) {
  const t = strings(lang, 'studio');
  await page.getByLabel(t.scan.uploadPhoto).setInputFiles(photo);
  await expect(page.getByRole('heading', { level: 1, name: t.result.title })).toBeVisible({
    timeout: ANALYSIS_TIMEOUT,
  });
  if (keepPhoto) await page.getByRole('checkbox', { name: t.result.keepPhoto }).check();
  await page.getByRole('button', { name: t.result.save }).click();
  await expect(page.getByText(t.result.saved)).toBeVisible();
}

async function consentAgain(page: Page, lang: Lang) {
  const t = strings(lang, 'studio');
  await expect(page.getByRole('heading', { level: 1, name: t.consent.title })).toBeVisible();
  await page.getByRole('checkbox', { name: t.consent.ageLabel }).check();
  await page.getByRole('checkbox', { name: t.consent.consentLabel }).check();
  await page.getByRole('button', { name: t.consent.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: t.home.title })).toBeVisible();
}

const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? `{{${name}}}`));

for (const lang of ['fr', 'en'] as const) {
  const t = strings(lang, 'studio');
  const brand = 'Skanova';

  for (const size of studioSizesFor(lang)) {
    test(`${lang} ${size.name}: two scans → export → delete everything → consent again → import restores them`, async ({
      browser,
    }) => {
      test.setTimeout(300_000);
      const context = await browser.newContext({ viewport: size, locale: lang === 'fr' ? 'fr-FR' : 'en-GB' });
      await answerCookieBanner(context);
      const requests = recordRequests(context);
      const page = await context.newPage();
      const health = await watchPageHealth(page);
      await startFromHomePage(page, lang);

      // Two scans: the first keeps its photo, the second only its scores, zones and preview.
      await page.getByRole('link', { name: t.home.newScan }).click();
      await scanAndSave(page, lang, FACE_PHOTO, true);
      await page.getByRole('button', { name: t.result.newScan }).click();
      await scanAndSave(page, lang, SECOND_FACE, false);
      const before = await deviceScans(page);
      expect(before.map((scan) => [scan.landmarks, scan.thumbnail !== null, scan.photo !== null])).toEqual([
        [478, true, true],
        [478, true, false],
      ]);

      // Your data: what the device holds, then the export.
      await page
        .getByRole('navigation', { name: t.layout.nav.label })
        .getByRole('link', { name: t.layout.nav.data })
        .click();
      await expect(page.getByRole('heading', { level: 1, name: t.data.title })).toBeVisible();
      const inventory = page.getByRole('region', { name: t.data.summaryTitle });
      await expect(inventory).toContainText(fill(t.data.summaryScans_other, { count: 2 }));
      await expect(inventory).toContainText(fill(t.data.summaryPhotos_one, { count: 1 }));
      await expectNoAxeViolations(page, `your data (${lang}, ${size.name})`);
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: t.data.export.action }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^skanova-studio-\d{4}-\d{2}-\d{2}\.json$/);
      const saved = test.info().outputPath(download.suggestedFilename());
      await download.saveAs(saved);
      await expect(
        page.getByText(fill(t.data.export.done, { name: download.suggestedFilename(), size: '' }).split(' (')[0]!),
      ).toBeVisible();
      const exported = JSON.parse(readFileSync(saved, 'utf8'));
      expect(exported).toMatchObject({ format: 'skanova-studio-export', formatVersion: 2 });
      expect(exported.scans).toHaveLength(2);
      // How each photo was taken travels with its scan (and comes back with it: `before` below).
      for (const scan of exported.scans)
        expect(scan.analysis.conditions).toMatchObject({ light: expect.any(Number), pose: expect.any(Object) });

      // Delete everything (after a confirmation): the database is gone, consent included.
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: t.data.delete.action }).click();
      await expect(page.getByText(t.data.delete.done)).toBeVisible();
      expect(await page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name))).toEqual([]);
      await page.getByRole('link', { name: t.data.delete.toHome }).click();
      await consentAgain(page, lang);
      await expect(page.getByText(t.home.noScans)).toBeVisible();

      // Import on the (now empty) device: the file is checked, summarised, then imported.
      await page
        .getByRole('navigation', { name: t.layout.nav.label })
        .getByRole('link', { name: t.layout.nav.data })
        .click();
      const importSection = page.getByRole('region', { name: t.data.import.title });
      await importSection.getByLabel(t.data.import.choose).setInputFiles(saved);
      await expect(importSection.getByText(t.data.import.emptyDevice)).toBeVisible();
      await expect(importSection.getByText(t.data.import.consentNote)).toBeVisible();
      await expectNoAxeViolations(page, `import, file checked (${lang}, ${size.name})`);
      await importSection.getByRole('button', { name: t.data.import.action }).click();
      await expect(importSection.getByRole('status')).toContainText(fill(t.data.import.added_other, { count: 2 }));
      expect(await deviceScans(page)).toEqual(before);

      // A damaged file (cut short) is refused with a message, and nothing changes.
      const text = readFileSync(saved, 'utf8');
      await importSection.getByLabel(t.data.import.choose).setInputFiles({
        name: 'damaged.json',
        mimeType: 'application/json',
        buffer: Buffer.from(text.slice(0, Math.floor(text.length / 2))),
      });
      await expect(importSection.getByRole('alert')).toHaveText(fill(t.data.import.errors.notJson, { brand }));
      await expectNoAxeViolations(page, `import refused (${lang}, ${size.name})`);
      // A file of another app is refused too.
      await importSection.getByLabel(t.data.import.choose).setInputFiles({
        name: 'other.json',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify({ format: 'someone-else', scans: [] })),
      });
      await expect(importSection.getByRole('alert')).toHaveText(fill(t.data.import.errors.notOurs, { brand }));
      expect(await deviceScans(page)).toEqual(before);

      // The same list on the app's home, the kept photo with its scan.
      await page
        .getByRole('navigation', { name: t.layout.nav.label })
        .getByRole('link', { name: t.layout.nav.scans })
        .click();
      await expect(page.getByRole('region', { name: t.home.savedTitle }).getByRole('link')).toHaveCount(2);

      expectHealthy(health, `your data (${lang}, ${size.name})`);
      expectPrivate(requests);
      await context.close();
    });
  }
}

test('importing next to scans already on the device: the choice is offered, merging keeps each scan once', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const t = strings('en', 'studio');
  const context = await browser.newContext({ locale: 'en-GB' });
  await answerCookieBanner(context);
  const requests = recordRequests(context);
  const page = await context.newPage();
  await startFromHomePage(page, 'en');
  await page.getByRole('link', { name: t.home.newScan }).click();
  await scanAndSave(page, 'en', FACE_PHOTO, false);
  await page.goto('/studio/data');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: t.data.export.action }).click();
  const saved = test.info().outputPath('export.json');
  await (await downloading).saveAs(saved);
  const before = await deviceScans(page);

  // The same file again, on the device that already holds its scan.
  const importSection = page.getByRole('region', { name: t.data.import.title });
  await importSection.getByLabel(t.data.import.choose).setInputFiles(saved);
  const modes = importSection.getByRole('group', { name: t.data.import.modeLegend_one });
  await expect(modes.getByRole('radio', { name: t.data.import.merge })).toBeChecked();
  await expect(modes.getByRole('radio', { name: t.data.import.replace })).not.toBeChecked();
  await expectNoAxeViolations(page, 'import, merge or replace');
  await importSection.getByRole('button', { name: t.data.import.action }).click();
  await expect(importSection.getByRole('status')).toContainText(fill(t.data.import.alreadyHere_one, { count: 1 }));
  expect(await deviceScans(page)).toEqual(before);
  expectPrivate(requests);
  await context.close();
});
