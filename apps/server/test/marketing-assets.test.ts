import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANNER_SIZES, BANNER_THEMES, type BannerSize } from '@skanova/shared/marketing/constants';
import {
  PRINT_DOCUMENTS,
  PRINT_DOCUMENT_KINDS,
  bannerImagePath,
  printDocumentPath,
} from '@skanova/shared/marketing/assets';
import { type TestApp, TEST_PUBLIC_URL, createTestApp } from './helpers/app.ts';
import { type TestAffiliate, createTestAffiliate } from './helpers/affiliates.ts';
import { pdfShownText, pngSize } from './helpers/marketing-files.ts';

// The marketing files of a referral code (docs/product/routes-and-screens.md#marketing-materials-panel): public
// banner images for the HTML embed snippet, and print PDFs for the code's owner only.

let t: TestApp;
let owner: TestAffiliate;
let other: TestAffiliate;
const OWNER_CODE = 'K7M2QX4P';
const OTHER_CODE = 'W3RT9ZH2';

async function addCode(affiliateId: string, code: string) {
  await t.database.sql.query('INSERT INTO referral_codes (code, affiliate_id, description) VALUES ($1, $2, $3)', [
    code,
    affiliateId,
    null,
  ]);
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await createTestAffiliate(t);
  other = await createTestAffiliate(t);
  await addCode(owner.affiliateId, OWNER_CODE);
  await addCode(other.affiliateId, OTHER_CODE);
});
afterAll(() => t.close());

function get(url: string, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') {
  return t.app.inject({ method: 'GET', url, headers, remoteAddress });
}

const sizes = Object.keys(BANNER_SIZES) as BannerSize[];

describe('banner images (public)', () => {
  for (const size of sizes) {
    for (const theme of BANNER_THEMES) {
      it(`${size} ${theme}: a PNG of exactly ${BANNER_SIZES[size].width}×${BANNER_SIZES[size].height} px`, async () => {
        const response = await get(bannerImagePath(OWNER_CODE, size, theme, 'fr'));
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe('image/png');
        expect(pngSize(response.rawPayload)).toEqual(BANNER_SIZES[size]);
      });
    }
  }

  it('can be shown on other sites and cached', async () => {
    const response = await get(bannerImagePath(OWNER_CODE, 'square', 'purple', 'en'));
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(response.headers['cache-control']).toMatch(/^public, max-age=\d+/);
    const etag = String(response.headers.etag);
    const again = await get(bannerImagePath(OWNER_CODE, 'square', 'purple', 'en'), { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('draws its text: the French and English banners differ, each is stable', async () => {
    const fr = await get(bannerImagePath(OWNER_CODE, 'horizontal', 'light', 'fr'));
    const en = await get(bannerImagePath(OWNER_CODE, 'horizontal', 'light', 'en'));
    const enAgain = await get(bannerImagePath(OWNER_CODE, 'horizontal', 'light', 'en'));
    expect(fr.rawPayload.equals(en.rawPayload)).toBe(false);
    expect(en.rawPayload.equals(enAgain.rawPayload)).toBe(true);
  });

  it('takes the language from the browser when the URL has none', async () => {
    const url = `/api/marketing/banners/${OWNER_CODE}/mobile-dark.png`;
    const english = await get(url, { 'accept-language': 'en-GB,en;q=0.9' });
    const explicit = await get(bannerImagePath(OWNER_CODE, 'mobile', 'dark', 'en'));
    const french = await get(url);
    expect(english.rawPayload.equals(explicit.rawPayload)).toBe(true);
    expect(french.rawPayload.equals(explicit.rawPayload)).toBe(false);
  });

  it('matches codes case-insensitively', async () => {
    const response = await get(bannerImagePath(OWNER_CODE.toLowerCase(), 'vertical', 'dark', 'en'));
    expect(response.statusCode).toBe(200);
    expect(pngSize(response.rawPayload)).toEqual(BANNER_SIZES.vertical);
  });

  it('answers an unknown or malformed code with not-found in the protocol shape', async () => {
    for (const code of ['NOSUCHCODE', 'a%20b', 'x'.repeat(40), '%3Cscript%3E']) {
      const response = await get(`/api/marketing/banners/${code}/square-purple.png?lang=fr`);
      expect(response.statusCode, code).toBe(404);
      expect(response.json(), code).toMatchObject({ error: { status: 'NOT_FOUND' } });
    }
  });

  it('refuses an unknown size or theme, and any other file name', async () => {
    for (const file of ['huge-purple.png', 'square-pink.png']) {
      const response = await get(`/api/marketing/banners/${OWNER_CODE}/${file}`);
      expect(response.statusCode, file).toBe(400);
      expect(response.json(), file).toMatchObject({ error: { status: 'INVALID_ARGUMENT' } });
    }
    for (const file of ['square.png', 'square-purple.jpg', 'square-purple.png.exe', 'SQUARE-PURPLE.PNG']) {
      const response = await get(`/api/marketing/banners/${OWNER_CODE}/${file}`);
      expect(response.statusCode, file).toBe(404);
      expect(response.json(), file).toMatchObject({ error: { status: 'NOT_FOUND' } });
    }
  });

  it('ignores a language it does not have', async () => {
    const response = await get(`/api/marketing/banners/${OWNER_CODE}/square-light.png?lang=de`);
    expect(response.statusCode).toBe(200);
    expect(pngSize(response.rawPayload)).toEqual(BANNER_SIZES.square);
  });

  it('stops serving the code of a deleted account', async () => {
    const gone = await createTestAffiliate(t);
    await addCode(gone.affiliateId, 'GQNE5TZ7');
    expect((await get(bannerImagePath('GQNE5TZ7', 'square', 'dark', 'fr'))).statusCode).toBe(200);
    await t.database.sql.query('UPDATE affiliates SET deleted_at = now() WHERE id = $1', [gone.affiliateId]);
    expect((await get(bannerImagePath('GQNE5TZ7', 'square', 'dark', 'fr'))).statusCode).toBe(404);
  });

  it('limits one client address', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 125; index += 1) {
      statuses.push((await get(bannerImagePath(OWNER_CODE, 'mobile', 'light', 'fr'), {}, '10.77.0.1')).statusCode);
    }
    expect(statuses.slice(0, 100).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Another address is not affected.
    expect((await get(bannerImagePath(OWNER_CODE, 'mobile', 'light', 'fr'), {}, '10.77.0.2')).statusCode).toBe(200);
  });
});

describe('print documents (the code owner only)', () => {
  for (const document of PRINT_DOCUMENT_KINDS) {
    it(`${document}: a one-page PDF of ${PRINT_DOCUMENTS[document].widthPt}×${PRINT_DOCUMENTS[document].heightPt} pt with the code and the link`, async () => {
      const response = await get(printDocumentPath(OWNER_CODE, document, 'fr'), { cookie: owner.cookie });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toBe(`attachment; filename="${document}-${OWNER_CODE}.pdf"`);
      expect(response.headers['cache-control']).toContain('no-store');
      const pdf = await PDFDocument.load(response.rawPayload);
      expect(pdf.getPageCount()).toBe(1);
      const { width, height } = pdf.getPage(0).getSize();
      expect(width).toBeCloseTo(PRINT_DOCUMENTS[document].widthPt, 1);
      expect(height).toBeCloseTo(PRINT_DOCUMENTS[document].heightPt, 1);
      const text = pdfShownText(response.rawPayload).join('\n');
      expect(text).toContain(OWNER_CODE);
      expect(text).toContain(`${TEST_PUBLIC_URL}/download?ref=${OWNER_CODE}`);
      expect(pdf.getTitle()).toContain(OWNER_CODE);
    });
  }

  it('writes the chosen language', async () => {
    const fr = pdfShownText(
      (await get(printDocumentPath(OWNER_CODE, 'flyer', 'fr'), { cookie: owner.cookie })).rawPayload,
    ).join('\n');
    const en = pdfShownText(
      (await get(printDocumentPath(OWNER_CODE, 'flyer', 'en'), { cookie: owner.cookie })).rawPayload,
    ).join('\n');
    expect(fr).toContain('Comment ça marche');
    expect(en).toContain('How it works');
  });

  it('answers unauthenticated without a session, before anything else', async () => {
    for (const url of [printDocumentPath(OWNER_CODE, 'flyer', 'fr'), '/api/marketing/print/NOSUCHCODE/poster.pdf']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(401);
      expect(response.json(), url).toMatchObject({ error: { status: 'UNAUTHENTICATED' } });
    }
    const forged = await get(printDocumentPath(OWNER_CODE, 'flyer', 'fr'), {
      cookie: 'better-auth.session_token=forged',
    });
    expect(forged.statusCode).toBe(401);
  });

  it("answers another affiliate's code exactly like an unknown one", async () => {
    const others = await get(printDocumentPath(OTHER_CODE, 'business-card', 'fr'), { cookie: owner.cookie });
    const unknown = await get(printDocumentPath('NOSUCHCODE', 'business-card', 'fr'), { cookie: owner.cookie });
    expect(others.statusCode).toBe(404);
    expect(others.json()).toEqual(unknown.json());
    // …while its owner gets it.
    expect((await get(printDocumentPath(OTHER_CODE, 'business-card', 'fr'), { cookie: other.cookie })).statusCode).toBe(
      200,
    );
  });

  it('matches the own code case-insensitively and refuses unknown documents', async () => {
    expect(
      (await get(printDocumentPath(OWNER_CODE.toLowerCase(), 'flyer', 'en'), { cookie: owner.cookie })).statusCode,
    ).toBe(200);
    const poster = await get(`/api/marketing/print/${OWNER_CODE}/poster.pdf`, { cookie: owner.cookie });
    expect(poster.statusCode).toBe(404);
    expect(poster.json()).toMatchObject({ error: { status: 'NOT_FOUND' } });
  });
});
