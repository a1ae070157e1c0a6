import { mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, type LaunchOptions, type Page, type Request, expect } from '@playwright/test';
import { CONSENT_COOKIE } from '@skanova/shared/site/constants';
import { BASE_URL, chromiumArgs } from '../../playwright.config';
import { expectNoAxeViolations } from './axe';
import { type Lang, strings } from './i18n';
import { jpegToY4m } from './y4m';

// The web app's browser tests (docs/product/web-app.md#the-promise): its test photos, Chromium's fake camera, the visitor's way
// in (home page → consent) and the privacy checks every story ends with.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURES = path.join(ROOT, 'packages/skin/test/fixtures');
/** A selfie that passes every gate (licence beside the fixtures). */
export const FACE_PHOTO = path.join(FIXTURES, 'face-sample3-a.jpg');
/** A cat: no face. */
export const CAT_PHOTO = path.join(FIXTURES, 'chelsea.jpg');
/** A portrait whose face is too small in the frame. */
export const FAR_FACE_PHOTO = path.join(FIXTURES, 'astronaut.jpg');
/** The first visit downloads and compiles the models (several seconds on a busy 2-core machine). */
export const ANALYSIS_TIMEOUT = 90_000;

/** The app's stories run on a phone and on a desktop. */
export const STUDIO_SIZES = [
  { name: 'phone', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

/**
 * The size a story with real analyses runs at in one language: French on a phone and English on a
 * desktop, or the other way round (`crossed`). Each story runs once per language, and the stories
 * between them meet every language at every size, without running each story four times (a story's
 * analyses are most of the end-to-end run's time).
 */
export function studioSizesFor(lang: Lang, options: { crossed?: boolean } = {}) {
  const phone = (lang === 'fr') !== (options.crossed ?? false);
  return [phone ? STUDIO_SIZES[0] : STUDIO_SIZES[1]];
}

/**
 * Launch options whose fake camera plays `photo` (as a Y4M written next to the test results).
 * Contexts that grant the camera permission get it; the others are refused, as when a visitor blocks it.
 */
export function fakeCamera(photo: string): LaunchOptions {
  const video = path.join(ROOT, `test-results/${path.basename(photo, '.jpg')}-${process.env.E2E_PORT ?? 3100}.y4m`);
  mkdirSync(path.dirname(video), { recursive: true });
  // Written aside then renamed: another worker's browser may be reading the previous copy.
  jpegToY4m(photo, `${video}.${process.pid}`);
  renameSync(`${video}.${process.pid}`, video);
  return {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...chromiumArgs, '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${video}`],
  };
}

/** Every request the pages and their worker make, for the privacy checks at the end of each test. */
export function recordRequests(context: BrowserContext): Request[] {
  const requests: Request[] = [];
  context.on('request', (request) => requests.push(request));
  return requests;
}

const IMAGE_SIGNATURES = [Buffer.from([0xff, 0xd8, 0xff]), Buffer.from('\x89PNG', 'latin1'), Buffer.from('RIFF')];

/** Zero requests to other hosts than `origin` (the test server's); no request body that could carry an image. */
export function expectPrivate(requests: Request[], origin = BASE_URL) {
  const foreign = requests
    .map((request) => request.url())
    .filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('blob:') && !url.startsWith('data:'));
  expect(foreign, 'requests to other hosts').toEqual([]);
  for (const request of requests) {
    const body = request.postDataBuffer();
    if (!body) continue;
    expect(body.length, `${request.method()} ${request.url()}`).toBeLessThan(8 * 1024);
    expect(body.toString('latin1'), request.url()).not.toMatch(/data:image|base64/i);
    for (const signature of IMAGE_SIGNATURES) expect(body.includes(signature), request.url()).toBe(false);
  }
}

/** The site's cookie banner was answered earlier: it is not what these stories are about. */
export async function answerCookieBanner(context: BrowserContext, origin = BASE_URL) {
  await context.addCookies([{ name: CONSENT_COOKIE, value: 'denied', url: origin }]);
}

/** Home page "Get started" → the app → consent before the first scan → the app's home. */
export async function startFromHomePage(page: Page, lang: Lang) {
  const t = strings(lang, 'studio');
  await page.goto(`/?lang=${lang}`);
  await page.getByRole('link', { name: strings(lang, 'home').hero.getStarted }).click();
  await expect(page).toHaveURL(/\/studio$/);
  await expect(page.getByRole('heading', { level: 1, name: t.consent.title })).toBeVisible();
  await expectNoAxeViolations(page, `consent (${lang})`);
  // Nothing of the offline copy (the app and its models, about 6 MB) is fetched before consent.
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
  // Both boxes are required: submitting without them says so.
  await page.getByRole('button', { name: t.consent.submit }).click();
  await expect(page.getByText(t.consent.ageRequired)).toBeVisible();
  await page.getByRole('checkbox', { name: t.consent.ageLabel }).check();
  await page.getByRole('checkbox', { name: t.consent.consentLabel }).check();
  await page.getByRole('button', { name: t.consent.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: t.home.title })).toBeVisible();
  await expect(page.getByText(t.home.noScans)).toBeVisible();
}
