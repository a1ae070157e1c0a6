import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Page, expect, test } from '@playwright/test';
import { LANGUAGES } from '@skanova/shared/site/constants';
import { STUDIO_HOME, STUDIO_PAGES, STUDIO_SCAN_PAGE } from '@skanova/shared/studio/constants';
import { STUDIO_SW_SCOPE, studioManifestUrl, studioPageInLanguage } from '@skanova/shared/studio/offline';
import { type AppServer, freePort, startAppServer } from './helpers/app-server';
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
} from './helpers/studio';

// The web app offline and installable (docs/product/web-app.md#offline-and-installable, ADR 011). After a first visit, with the server
// switched off and Chromium offline, every page of the app opens, a photo is analysed and saved, the
// saved scans show, in both languages. A new deployment installs beside the running version and waits;
// the visitor is told (never while an analysis is under way), reloads, and keeps every scan.
// Each story runs its own server: one it can switch off, and replace on the same address.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILD_DIR = path.resolve(ROOT, process.env.WEB_BUILD_DIR ?? 'apps/web/build');
/** Above this the first visit costs too much (the build holds the list to the same figure). */
const MAX_COPY_BYTES = 12 * 1024 * 1024;
const LOCALES: Record<Lang, string> = { fr: 'fr-FR', en: 'en-GB' };
const SIZES = {
  phone: { width: 375, height: 812 },
  desktop: { width: 1280, height: 900 },
};

/** The title each page of the app shows (its `meta` string). */
function pageTitle(lang: Lang, pagePath: string): string {
  const name = pagePath === STUDIO_HOME ? 'home' : pagePath.slice(pagePath.lastIndexOf('/') + 1);
  return (strings(lang, 'studio').meta[`${name}Title`] as string).replace('{{brand}}', 'Skanova');
}

/** The service worker took charge of the page: it is installed, so its copy of the app is complete. */
async function waitForOfflineCopy(page: Page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', null, {
    timeout: ANALYSIS_TIMEOUT,
  });
}

/** What the service worker keeps: addresses (path and query) and bytes. */
function offlineCopy(page: Page) {
  return page.evaluate(async () => {
    const name = (await caches.keys()).find((key) => key.includes('precache'));
    if (!name) return { urls: [], bytes: 0 };
    const cache = await caches.open(name);
    const urls: string[] = [];
    let bytes = 0;
    for (const request of await cache.keys()) {
      const url = new URL(request.url);
      url.searchParams.delete('__WB_REVISION__');
      urls.push(`${url.pathname}${url.search}`);
      bytes += (await (await cache.match(request))!.blob()).size;
    }
    return { urls, bytes };
  });
}

/** The public site's own code and strings in this build: none of it belongs in the app's copy. */
function publicSiteFiles(): string[] {
  const manifest = JSON.parse(readFileSync(path.join(BUILD_DIR, 'fr/client/.vite/manifest.json'), 'utf8')) as Record<
    string,
    { file: string }
  >;
  return Object.entries(manifest)
    .filter(
      ([key]) =>
        /^app\/routes\/(?!studio)/.test(key) ||
        /\/i18n\/[a-z]{2}\/(?!common\.json|studio\.json)[\w-]+\.json$/.test(key),
    )
    .map(([, chunk]) => `/${chunk.file}`);
}

async function expectCompleteCopy(page: Page) {
  const { urls, bytes } = await offlineCopy(page);
  const client = path.join(BUILD_DIR, 'fr/client');
  const worker = readdirSync(path.join(client, 'studio-assets')).find((name) => name.startsWith('analysis.worker-'));
  expect(urls).toContain(`/studio-assets/${worker}`);
  const [modelsDir] = readdirSync(path.join(client, 'assets/studio-models'));
  for (const file of readdirSync(path.join(client, 'assets/studio-models', modelsDir!)).filter(
    (name) => !/\.(br|gz)$/.test(name),
  ))
    expect(urls).toContain(`/assets/studio-models/${modelsDir}/${file}`);
  for (const lang of LANGUAGES) {
    for (const pagePath of STUDIO_PAGES) expect(urls).toContain(studioPageInLanguage(pagePath, lang));
    expect(urls).toContain(studioManifestUrl(lang));
  }
  const publicFiles = publicSiteFiles();
  expect(publicFiles.length).toBeGreaterThan(10);
  expect(urls.filter((url) => publicFiles.includes(url))).toEqual([]);
  expect(bytes).toBeLessThan(MAX_COPY_BYTES);
}

/** A photo analysed on the capture page; its result on the screen, not saved yet. */
async function analysePhoto(page: Page, lang: Lang) {
  const t = strings(lang, 'studio');
  await page.getByLabel(t.scan.uploadPhoto).setInputFiles(FACE_PHOTO);
  await expect(page.getByRole('heading', { level: 1, name: t.result.title })).toBeVisible({
    timeout: ANALYSIS_TIMEOUT,
  });
}

async function saveResult(page: Page, lang: Lang) {
  const t = strings(lang, 'studio');
  await page.getByRole('button', { name: t.result.save }).click();
  await expect(page.getByText(t.result.saved)).toBeVisible();
}

/** The saved scans listed on the app's home. */
function savedScans(page: Page, lang: Lang) {
  return page.getByRole('region', { name: strings(lang, 'studio').home.savedTitle }).getByRole('link');
}

function temporaryFolder(prefix: string) {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

for (const lang of LANGUAGES) {
  const other: Lang = lang === 'fr' ? 'en' : 'fr';

  test(`${lang}: after the first visit the app works without a network — every page, an analysis, a save`, async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    const dataDir = temporaryFolder('studio-offline-data-');
    const server = await startAppServer({ port: await freePort(), buildDir: BUILD_DIR, dataDir });
    try {
      const context = await browser.newContext({ baseURL: server.url, locale: LOCALES[lang] });
      await answerCookieBanner(context, server.url);
      const requests = recordRequests(context);
      const page = await context.newPage();
      const health = await watchPageHealth(page);

      // The first visit, online: consent, and the service worker keeps its copy of the app.
      await startFromHomePage(page, lang);
      await waitForOfflineCopy(page);
      await expectCompleteCopy(page);

      // The network is gone: the server is off and the browser offline. The browser's HTTP cache is
      // emptied too: what still works comes from the service worker's copy alone.
      await server.stop();
      await context.setOffline(true);
      await (await context.newCDPSession(page)).send('Network.clearBrowserCache');
      for (const pagePath of STUDIO_PAGES) {
        await page.goto(pagePath);
        await expect(page, pagePath).toHaveTitle(pageTitle(lang, pagePath));
        await expect(page.locator('html')).toHaveAttribute('lang', lang);
      }

      await page.goto(STUDIO_SCAN_PAGE);
      await analysePhoto(page, lang);
      await saveResult(page, lang);
      await page.goto(STUDIO_HOME);
      await expect(savedScans(page, lang)).toHaveCount(1);
      await page.reload();
      await expect(savedScans(page, lang)).toHaveCount(1);

      // The language switches in place offline (the other language's strings are kept too), and the
      // choice holds at the next visit: the worker serves that language's copy of the page.
      await page.getByRole('button', { name: strings(lang).language.switchTo }).click();
      await expect(page.getByRole('heading', { level: 1, name: strings(other, 'studio').home.title })).toBeVisible();
      await page.reload();
      await expect(page.locator('html')).toHaveAttribute('lang', other);
      await expect(savedScans(page, other)).toHaveCount(1);

      expectHealthy(health, `the app offline (${lang})`);
      expectPrivate(requests, server.url);
      await context.close();
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}

/** A second deployment: the same build with its app pages changed (each marked), as a release changes them. */
function secondDeployment(): string {
  const dir = temporaryFolder('studio-offline-v2-');
  for (const lang of LANGUAGES) {
    const client = path.join(dir, lang, 'client');
    cpSync(path.join(BUILD_DIR, lang, 'client'), client, { recursive: true });
    for (const pagePath of STUDIO_PAGES) {
      const file = path.join(client, pagePath, 'index.html');
      writeFileSync(file, readFileSync(file, 'utf8').replace(/^<!DOCTYPE html><html /, '$&data-release="2" '));
    }
  }
  return dir;
}

const UPDATE_STORIES = [
  { lang: 'fr', size: 'phone' },
  { lang: 'en', size: 'desktop' },
] as const;

for (const { lang, size } of UPDATE_STORIES) {
  const t = strings(lang, 'studio');

  test(`${lang} ${size}: a new deployment waits, the visitor is told, reloads and keeps every scan`, async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    const port = await freePort();
    const dataDir = temporaryFolder('studio-offline-data-');
    const nextBuild = secondDeployment();
    let server: AppServer = await startAppServer({ port, buildDir: BUILD_DIR, dataDir });
    try {
      const context = await browser.newContext({
        baseURL: server.url,
        locale: LOCALES[lang],
        viewport: SIZES[size],
      });
      await answerCookieBanner(context, server.url);
      const requests = recordRequests(context);
      const page = await context.newPage();
      const health = await watchPageHealth(page);
      const notice = page.getByRole('region', { name: t.offline.update.label });
      const reload = notice.getByRole('button', { name: t.offline.update.reload });
      const html = page.locator('html');
      const registration = () =>
        page.evaluate(async (scope) => {
          const found = await navigator.serviceWorker.getRegistration(scope);
          return { waiting: Boolean(found?.waiting), active: Boolean(found?.active) };
        }, STUDIO_SW_SCOPE);

      await startFromHomePage(page, lang);
      await waitForOfflineCopy(page);
      await page.getByRole('link', { name: t.home.newScan }).click();
      await analysePhoto(page, lang);
      await saveResult(page, lang);

      // The new version is deployed on the same address.
      await server.stop();
      server = await startAppServer({ port, buildDir: nextBuild, dataDir });
      await page.goto(STUDIO_HOME);
      // The page still runs the version it had; the new one is installed and waits.
      await expect(notice.getByText(t.offline.update.ready)).toBeVisible({ timeout: ANALYSIS_TIMEOUT });
      await expect(notice.getByText(t.offline.update.keep)).toBeVisible();
      expect(await registration()).toEqual({ waiting: true, active: true });
      expect(await html.getAttribute('data-release')).toBeNull();
      await expectNoAxeViolations(page, `update notice (${lang}, ${size})`);

      // Never in the middle of an analysis: from the photo until its result is saved, the notice waits.
      await page.getByRole('link', { name: t.home.newScan }).click();
      await expect(reload).toBeVisible();
      await analysePhoto(page, lang);
      await expect(reload).toBeHidden();
      await saveResult(page, lang);
      await expect(reload).toBeVisible();

      // "Later" puts it away for this page; the next page brings it back.
      await notice.getByRole('button', { name: t.offline.update.later }).click();
      await expect(reload).toBeHidden();
      await page.goto(STUDIO_HOME);
      await expect(reload).toBeVisible();

      await reload.click();
      await expect(html).toHaveAttribute('data-release', '2');
      await expect(page.getByRole('heading', { level: 1, name: t.home.title })).toBeVisible();
      await expect(reload).toBeHidden();
      expect(await registration()).toEqual({ waiting: false, active: true });
      // Nothing stored was lost.
      await expect(savedScans(page, lang)).toHaveCount(2);

      expectHealthy(health, `the app across an update (${lang}, ${size})`);
      expectPrivate(requests, server.url);
      await context.close();
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(nextBuild, { recursive: true, force: true });
    }
  });
}
