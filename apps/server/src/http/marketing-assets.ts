import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BANNER_SIZES, BANNER_THEMES } from '@skanova/shared/marketing/constants';
import { isLanguage, type Language } from '@skanova/shared/site/constants';
import { negotiateLanguage } from '@skanova/shared/i18n/negotiate';
import {
  MARKETING_API_PREFIX,
  PRINT_DOCUMENTS,
  type PrintDocument,
  parseBannerFileName,
} from '@skanova/shared/marketing/assets';
import type { AppContext } from '../context.ts';
import { resolveCaller } from '../features/auth/caller.ts';
import { createBannerRenderer } from '../features/marketing/banner-image.ts';
import { isLiveReferralCode, normaliseCode, ownsReferralCode } from '../features/marketing/marketing-codes.ts';
import { renderPrintDocument } from '../features/marketing/print-documents.ts';
import { sendCallableError } from './callable.ts';

// The marketing files of a referral code (docs/product/routes-and-screens.md#marketing-materials-panel):
// - GET /api/marketing/banners/:code/:size-:theme.png?lang= — public: the image of the HTML embed
//   snippet that affiliates paste into other sites, so it may be loaded from any origin.
// - GET /api/marketing/print/:code/(flyer|business-card).pdf?lang= — the signed-in owner of the code only.
// Errors answer in the callable protocol's shape, like every /api path.

/** Per client IP. A page embedding banners asks once per visitor and then uses its cache. */
const BANNER_REQUESTS_PER_MINUTE = 120;
const PRINT_REQUESTS_PER_MINUTE = 30;
/** Banners change only when the code is deleted or the texts are redeployed: an hour of caching. */
const BANNER_MAX_AGE_SECONDS = 3600;

export function registerMarketingAssets(app: FastifyInstance, ctx: AppContext): void {
  const renderBanner = createBannerRenderer({ brand: ctx.config.BRAND_NAME, publicUrl: ctx.config.publicUrl });

  app.get(
    `${MARKETING_API_PREFIX}/banners/:code/:file`,
    { config: { rateLimit: { max: BANNER_REQUESTS_PER_MINUTE, timeWindow: '1 minute' } } },
    async (request, reply) => {
      const { code: rawCode, file } = request.params as { code: string; file: string };
      if (!/^[a-z0-9]+-[a-z0-9]+\.png$/.test(file)) return sendCallableError(reply, 'not-found', 'No such banner.');
      const banner = parseBannerFileName(file);
      if (!banner) {
        return sendCallableError(reply, 'invalid-argument', 'Unknown banner size or theme.', {
          code: 'invalid-argument',
          sizes: Object.keys(BANNER_SIZES),
          themes: BANNER_THEMES,
        });
      }
      const code = normaliseCode(rawCode);
      if (!code || !(await isLiveReferralCode(ctx, code)))
        return sendCallableError(reply, 'not-found', 'No such referral code.');
      // Embedded on other sites: the URL's language decides, else the viewer's browser (not our cookie).
      const lang = negotiateLanguage({
        query: queryLanguage(request),
        acceptLanguage: request.headers['accept-language'],
      });
      const png = await renderBanner({ code, ...banner, lang });
      const etag = `"${createHash('sha256').update(png).digest('base64url').slice(0, 27)}"`;
      reply
        .header('cache-control', `public, max-age=${BANNER_MAX_AGE_SECONDS}`)
        .header('vary', 'Accept-Language')
        .header('etag', etag)
        // Helmet answers same-origin by default; the embed snippet shows this image on other sites.
        .header('cross-origin-resource-policy', 'cross-origin');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply.type('image/png').send(png);
    },
  );

  app.get(
    `${MARKETING_API_PREFIX}/print/:code/:file`,
    { config: { rateLimit: { max: PRINT_REQUESTS_PER_MINUTE, timeWindow: '1 minute' } } },
    async (request, reply) => {
      // Who asks comes first: an anonymous request learns nothing about codes or files.
      const caller = await resolveCaller(ctx, request);
      if (!caller)
        return sendCallableError(reply, 'unauthenticated', 'You must be signed in.', { code: 'unauthenticated' });
      const affiliate = await caller.affiliate();
      if (!affiliate)
        return sendCallableError(reply, 'not-found', 'Your affiliate profile was not found.', { code: 'not-found' });

      const { code: rawCode, file } = request.params as { code: string; file: string };
      const document = printDocumentFor(file);
      if (!document) return sendCallableError(reply, 'not-found', 'No such document.');
      const code = normaliseCode(rawCode);
      // Another affiliate's code is answered exactly like a code that does not exist.
      if (!code || !(await ownsReferralCode(ctx, affiliate.affiliateId, code))) {
        return sendCallableError(reply, 'not-found', 'No such referral code.');
      }
      const lang: Language = queryLanguage(request) ?? affiliate.language;
      const pdf = await renderPrintDocument({
        document,
        code,
        lang,
        brand: ctx.config.BRAND_NAME,
        publicUrl: ctx.config.publicUrl,
        now: ctx.now(),
      });
      return sendPdf(reply, pdf, `${document}-${code}.pdf`);
    },
  );
}

function queryLanguage(request: FastifyRequest): Language | undefined {
  const value = (request.query as Record<string, unknown>).lang;
  const lang = typeof value === 'string' ? value.toLowerCase() : undefined;
  return isLanguage(lang) ? lang : undefined;
}

function printDocumentFor(file: string): PrintDocument | undefined {
  return (Object.keys(PRINT_DOCUMENTS) as PrintDocument[]).find((document) => PRINT_DOCUMENTS[document].file === file);
}

function sendPdf(reply: FastifyReply, pdf: Uint8Array, fileName: string) {
  return reply
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'private, no-store')
    .type('application/pdf')
    .send(Buffer.from(pdf));
}
