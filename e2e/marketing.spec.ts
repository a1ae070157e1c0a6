import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { type Download, type Page, expect, test } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import {
  BANNER_PREVIEW_SCALE,
  BANNER_SIZES,
  QR_DEFAULTS,
  QR_SIZE_RANGE,
  type BannerSize,
} from '@skanova/shared/marketing/constants';
import { PRINT_DOCUMENTS } from '@skanova/shared/marketing/assets';
import { BANNER_THEME_COLORS } from '@skanova/shared/marketing/banner-template';
import { BASE_URL } from '../playwright.config';
import { type Lang, strings } from './helpers/i18n';
import { expectHealthy, waitForAnimations, watchPageHealth } from './helpers/page-health';

// The QR code and marketing pages (docs/product/routes-and-screens.md#qr-code-page, docs/product/routes-and-screens.md#marketing-resources-page) in both languages, as an affiliate uses them: a
// fresh account with two codes, the QR panel's options and both downloads (the files are checked),
// every banner size previewed and downloaded at full size, the HTML embed snippet copied and its
// image fetched, the e-mail and social texts copied, both print PDFs, the empty state, the error
// message, axe, and no CSP violation, console error or hydration error.

const LOCALES: Record<Lang, string> = { fr: 'fr-FR', en: 'en-US' };
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const SIZES = Object.keys(BANNER_SIZES) as BannerSize[];

/** `{{name}}` placeholders filled in; the brand is the server's default. */
function fill(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) =>
    String({ brand: 'Skanova', ...values }[name] ?? ''),
  );
}

function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE), 'PNG signature').toBe(true);
  expect(bytes.toString('ascii', 12, 16)).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

async function downloaded(page: Page, click: () => Promise<void>): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = await download.path();
  return { download, bytes: await readFile(path) };
}

let sequence = 0;

/** A fresh affiliate, signed up from the page's own context (the answer sets the session cookie there). */
async function signUp(page: Page, lang: Lang): Promise<void> {
  sequence += 1;
  const response = await page.request.post('/api/fn/createAffiliate', {
    headers: { origin: BASE_URL },
    data: {
      data: {
        email: `marketing-${lang}-${sequence}-${Date.now().toString(36)}@example.com`,
        password: 'correct horse battery',
        firstName: 'Ada',
        lastName: 'Lovelace',
        phone: '',
        companyName: '',
        website: '',
        paymentMethod: 'later',
        paymentDetails: null,
        termsAccepted: true,
        language: lang,
      },
    },
  });
  expect(response.status(), await response.text()).toBe(200);
}

async function generateCode(page: Page, description: string | null): Promise<{ code: string; link: string }> {
  const response = await page.request.post('/api/fn/generateReferralCode', {
    headers: { origin: BASE_URL },
    data: { data: { description } },
  });
  expect(response.status(), await response.text()).toBe(200);
  const { code } = (await response.json()).result as { code: string };
  return { code, link: `${BASE_URL}/download?ref=${code}` };
}

async function expectNoAxeViolations(page: Page, where: string) {
  await waitForAnimations(page);
  const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  expect(
    results.violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    ),
    where,
  ).toEqual([]);
}

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

for (const lang of ['fr', 'en'] as const) {
  const m = strings(lang, 'marketing');

  test.describe(`QR codes and marketing (${lang})`, () => {
    test.use({ locale: LOCALES[lang] });

    test('the QR code page: the chosen code, its options and both downloads', async ({ page }) => {
      const health = await watchPageHealth(page);
      await signUp(page, lang);
      const first = await generateCode(page, 'Instagram');
      const second = await generateCode(page, null);

      await page.goto(`/affiliate/qrcode?lang=${lang}`);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expect(page.getByRole('heading', { level: 1, name: m.qrPage.title })).toBeVisible();
      const picker = page.getByLabel(m.codes.label);
      await expect(picker.locator('option')).toHaveText([
        fill(m.codes.option, { code: first.code, description: 'Instagram' }),
        second.code,
      ]);
      await expect(page.getByRole('img', { name: fill(m.qr.imageLabel, { link: first.link }) })).toBeVisible();
      await expect(page.getByRole('main').getByRole('heading', { level: 3 })).toHaveText([
        m.qr.tipsTitle,
        ...m.qrPage.ideas.map((idea: { title: string }) => idea.title),
      ]);
      await expect(page.locator('.qr-panel__tips li')).toHaveCount(3);
      await expect(page.locator('.marketing-idea')).toHaveCount(4);

      await picker.selectOption(second.code);
      const qr = page.getByRole('img', { name: fill(m.qr.imageLabel, { link: second.link }) });
      await expect(qr).toBeVisible();
      await expect(page.getByText(second.link, { exact: true })).toBeVisible();
      await expect(qr).toHaveAttribute('width', String(QR_DEFAULTS.size));
      await expect(qr.locator('path')).toHaveAttribute('fill', QR_DEFAULTS.foreground);
      await expect(qr.locator('rect')).toHaveAttribute('fill', QR_DEFAULTS.background);

      const toggle = page.getByRole('button', { name: m.qr.options });
      const slider = page.getByRole('slider');
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await expect(slider).toBeHidden();
      await toggle.click();
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      await expect(slider).toBeVisible();
      await expect(slider).toHaveAttribute('min', String(QR_SIZE_RANGE.min));
      await expect(slider).toHaveAttribute('max', String(QR_SIZE_RANGE.max));
      await expect(slider).toHaveAttribute('step', String(QR_SIZE_RANGE.step));
      await expectNoAxeViolations(page, `/affiliate/qrcode (${lang})`);

      await slider.fill('300');
      await expect(qr).toHaveAttribute('width', '300');
      await slider.focus();
      await page.keyboard.press('ArrowRight');
      await expect(qr).toHaveAttribute('width', '310');
      await page.getByLabel(m.qr.foreground).fill('#112233');
      await page.getByLabel(m.qr.background).fill('#fafad2');
      await expect(qr.locator('path')).toHaveAttribute('fill', '#112233');
      await expect(qr.locator('rect')).toHaveAttribute('fill', '#fafad2');

      const svg = await downloaded(page, () => page.getByRole('button', { name: m.qr.downloadSvg }).click());
      expect(svg.download.suggestedFilename()).toBe(`qr-code-${second.code}.svg`);
      const svgText = svg.bytes.toString('utf8');
      const parsed = await page.evaluate((text) => {
        const document = new DOMParser().parseFromString(text, 'image/svg+xml');
        const root = document.documentElement;
        return {
          error: document.querySelector('parsererror') !== null,
          name: root.nodeName,
          width: root.getAttribute('width'),
          height: root.getAttribute('height'),
          foreground: root.querySelector('path')?.getAttribute('fill'),
          background: root.querySelector('rect')?.getAttribute('fill'),
        };
      }, svgText);
      expect(parsed).toEqual({
        error: false,
        name: 'svg',
        width: '310',
        height: '310',
        foreground: '#112233',
        background: '#fafad2',
      });

      const png = await downloaded(page, () => page.getByRole('button', { name: m.qr.downloadPng }).click());
      expect(png.download.suggestedFilename()).toBe(`qr-code-${second.code}.png`);
      expect(pngSize(png.bytes)).toEqual({ width: 310, height: 310 });

      await page.getByRole('link', { name: m.codes.back }).click();
      await expect(page).toHaveURL(/\/affiliate\/dashboard/);
      expectHealthy(health, `/affiliate/qrcode (${lang})`);
    });

    test('the marketing page: banners, embed code, texts and print documents', async ({ page, context }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      const health = await watchPageHealth(page);
      await signUp(page, lang);
      const { code, link } = await generateCode(page, null);

      await page.goto(`/affiliate/marketing?lang=${lang}`);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expect(page.getByRole('heading', { level: 1, name: m.marketingPage.title })).toBeVisible();
      await expect(page.getByLabel(m.codes.label)).toHaveValue(code);
      await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveText([
        m.banners.title,
        m.email.title,
        m.social.title,
        m.print.title,
        m.tipsTitle,
      ]);
      await expect(page.locator('.marketing-tips li')).toHaveCount(4);
      await expectNoAxeViolations(page, `/affiliate/marketing (${lang})`);

      // Every size: the half-size preview shows the code, the PNG is the full size.
      const alt = fill(m.banners.alt, { code });
      const preview = page.getByRole('img', { name: alt });
      for (const size of SIZES) {
        const { width, height } = BANNER_SIZES[size];
        await page.getByLabel(m.banners.size).selectOption(size);
        await expect(preview).toHaveAttribute('width', String(width * BANNER_PREVIEW_SCALE));
        await expect(preview).toHaveAttribute('height', String(height * BANNER_PREVIEW_SCALE));
        await expect(preview.locator('text', { hasText: code })).toHaveCount(1);
        const box = await preview.boundingBox();
        expect(box?.width).toBeCloseTo(width * BANNER_PREVIEW_SCALE, 0);
        const png = await downloaded(page, () => page.getByRole('button', { name: m.banners.downloadPng }).click());
        expect(png.download.suggestedFilename()).toBe(`banner-${code}-${size}-purple.png`);
        expect(pngSize(png.bytes), size).toEqual({ width, height });
      }

      // The embed snippet of the square dark banner: copied, confirmed, and its image served.
      await page.getByLabel(m.banners.size).selectOption('square');
      await page.getByLabel(m.banners.theme).selectOption('dark');
      await expect(preview.locator('stop').first()).toHaveAttribute(
        'stop-color',
        BANNER_THEME_COLORS.dark.backgroundFrom,
      );
      await page.getByRole('button', { name: m.banners.copyHtml }).click();
      await expect(page.getByRole('status').filter({ hasText: m.banners.htmlCopied })).toBeVisible();
      const html = await clipboard(page);
      await expect(page.getByLabel(m.banners.htmlLabel)).toHaveValue(html);
      const imageUrl = `${BASE_URL}/api/marketing/banners/${code}/square-dark.png?lang=${lang}`;
      const snippet = await page.evaluate((markup) => {
        const template = document.createElement('template');
        template.innerHTML = markup;
        const anchor = template.content.querySelector('a');
        const img = anchor?.querySelector('img');
        return {
          count: template.content.childElementCount,
          href: anchor?.getAttribute('href'),
          src: img?.getAttribute('src'),
          width: img?.getAttribute('width'),
          height: img?.getAttribute('height'),
          alt: img?.getAttribute('alt'),
        };
      }, html);
      expect(snippet).toEqual({ count: 1, href: link, src: imageUrl, width: '300', height: '250', alt });
      const image = await page.request.get(imageUrl);
      expect(image.status()).toBe(200);
      expect(image.headers()['content-type']).toBe('image/png');
      expect(pngSize(await image.body())).toEqual(BANNER_SIZES.square);

      // The e-mail and the three posts, with the code and the link filled in.
      await page.getByRole('button', { name: m.email.copy }).click();
      await expect(page.getByRole('status').filter({ hasText: m.email.copied })).toBeVisible();
      const email = await clipboard(page);
      expect(email).toContain(fill(m.email.subject));
      expect(email).toContain(code);
      expect(email).toContain(link);
      for (const network of ['instagram', 'facebook', 'twitter'] as const) {
        const name = m.social.posts[network].name as string;
        await page.getByRole('button', { name: fill(m.social.copy, { network: name }) }).click();
        await expect(page.getByRole('status').filter({ hasText: m.social.copied })).toBeVisible();
        expect(await clipboard(page)).toBe(fill(m.social.posts[network].text, { code, link }));
        await expect(page.getByLabel(fill(m.social.postLabel, { network: name }))).toHaveValue(
          fill(m.social.posts[network].text, { code, link }),
        );
      }

      // The print documents, made by the server for this code.
      for (const [label, document] of [
        [m.print.flyer, 'flyer'],
        [m.print.businessCard, 'business-card'],
      ] as const) {
        const pdf = await downloaded(page, () => page.getByRole('link', { name: label }).click());
        expect(pdf.download.suggestedFilename()).toBe(`${document}-${code}.pdf`);
        expect(pdf.bytes.length).toBeGreaterThan(1000);
        const parsed = await PDFDocument.load(pdf.bytes);
        expect(parsed.getPageCount()).toBe(1);
        const size = parsed.getPage(0).getSize();
        expect(size.width).toBeCloseTo(PRINT_DOCUMENTS[document].widthPt, 1);
        expect(size.height).toBeCloseTo(PRINT_DOCUMENTS[document].heightPt, 1);
        expect(parsed.getTitle()).toContain(code);
      }
      await expectNoAxeViolations(page, `/affiliate/marketing after use (${lang})`);
      expectHealthy(health, `/affiliate/marketing (${lang})`);
    });

    test('without a code, both pages send the affiliate to the dashboard', async ({ page }) => {
      const health = await watchPageHealth(page);
      await signUp(page, lang);
      await page.goto(`/affiliate/marketing?lang=${lang}`);
      await expect(page.getByText(m.marketingPage.noCodes)).toBeVisible();
      await expect(page.getByLabel(m.codes.label)).toHaveCount(0);
      await expectNoAxeViolations(page, `/affiliate/marketing without codes (${lang})`);
      await page.getByRole('link', { name: m.marketingPage.generateCode }).click();
      await expect(page).toHaveURL(/\/affiliate\/dashboard/);

      await page.goto(`/affiliate/qrcode?lang=${lang}`);
      await expect(page.getByText(m.codes.noCodes)).toBeVisible();
      await expect(page.locator('.marketing-idea')).toHaveCount(4);
      await expectNoAxeViolations(page, `/affiliate/qrcode without codes (${lang})`);
      expectHealthy(health, `marketing pages without codes (${lang})`);
    });

    test('says when the codes cannot be loaded', async ({ page }) => {
      await signUp(page, lang);
      await page.route('**/api/fn/getAffiliateStats', (route) =>
        route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({ error: { status: 'UNAVAILABLE', message: 'down' } }),
        }),
      );
      await page.goto(`/affiliate/marketing?lang=${lang}`);
      await expect(page.getByRole('alert')).toHaveText(m.codes.loadError);
      await page.goto(`/affiliate/qrcode?lang=${lang}`);
      await expect(page.getByRole('alert')).toHaveText(m.codes.loadError);
    });
  });
}

test('the pages are for signed-in affiliates only', async ({ page }) => {
  await page.goto('/affiliate/marketing');
  await expect(page).toHaveURL(/\/affiliate\/login/);
  const pdf = await page.request.get('/api/marketing/print/ABCDEFGH/flyer.pdf');
  expect(pdf.status()).toBe(401);
});
