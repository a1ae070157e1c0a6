import type { FastifyInstance } from 'fastify';
import { LANGUAGES, PUBLIC_PAGES } from '@skanova/shared/site/constants';
import { AFFILIATE_INDEXED_PAGES } from '@skanova/shared/affiliate/constants';
import { STUDIO_HOME } from '@skanova/shared/studio/constants';
import type { AppContext } from '../context.ts';

export function registerSeo(app: FastifyInstance, ctx: AppContext) {
  const base = ctx.config.publicUrl;
  const robots = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    'Disallow: /affiliate/dashboard',
    'Disallow: /affiliate/qrcode',
    'Disallow: /affiliate/marketing',
    '',
    `Sitemap: ${base}/sitemap.xml`,
    '',
  ].join('\n');
  // The web app's home is a page like the site's; its other pages read the visitor's device (noindex).
  const urls = [...PUBLIC_PAGES, ...AFFILIATE_INDEXED_PAGES, STUDIO_HOME].flatMap((page) =>
    LANGUAGES.map((lang) => {
      const alternates = LANGUAGES.map(
        (alt) => `    <xhtml:link rel="alternate" hreflang="${alt}" href="${base}${page}?lang=${alt}"/>`,
      ).join('\n');
      return `  <url>\n    <loc>${base}${page}?lang=${lang}</loc>\n${alternates}\n  </url>`;
    }),
  );
  const sitemap = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
  app.get('/robots.txt', (_request, reply) => reply.type('text/plain; charset=utf-8').send(robots));
  app.get('/sitemap.xml', (_request, reply) => reply.type('application/xml; charset=utf-8').send(sitemap));
}
