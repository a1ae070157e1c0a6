import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { negotiateLanguage } from '@skanova/shared/i18n/negotiate';
import { LANGUAGES, LANGUAGE_COOKIE, type Language } from '@skanova/shared/site/constants';
import { STUDIO_PAGES } from '@skanova/shared/studio/constants';
import {
  STUDIO_MANIFEST_PATH,
  STUDIO_REVISION_TOKEN,
  STUDIO_SW_PATH,
  type StudioManifestTexts,
  studioWebManifest,
} from '@skanova/shared/studio/offline';
import type { Config } from '../config.ts';
import { type Site, preferredEncoding } from './site.ts';

// The web app offline and installable (ADR 011): its web app manifest, in the visitor's language and
// with the configured brand, and its service worker's script, which the build wrote and which this
// server completes with the revision of the app's pages as it serves them.

const require = createRequire(import.meta.url);
type Tree = { [key: string]: string | Tree };
const STRINGS: Record<Language, Tree> = {
  fr: require('@skanova/shared/i18n/fr/studio.json') as Tree,
  en: require('@skanova/shared/i18n/en/studio.json') as Tree,
};

/**
 * What the service worker may do: run its own script and fetch from this origin (the files it keeps,
 * and the pages' requests it passes on). It starts no worker, frames nothing and loads no other script.
 */
export const STUDIO_SW_CSP = ["default-src 'none'", "script-src 'self'", "connect-src 'self'"].join('; ');

function manifestTexts(lang: Language, brand: string): StudioManifestTexts {
  const group = (STRINGS[lang].offline as Tree).manifest as Tree;
  const text = (key: keyof StudioManifestTexts) => {
    const value = group[key];
    if (typeof value !== 'string') throw new Error(`missing studio text ${lang}:offline.manifest.${key}`);
    return value.replaceAll('{{brand}}', brand);
  };
  return { name: text('name'), shortName: text('shortName'), description: text('description') };
}

/** The manifest as served in each language (JSON text). */
export function studioManifests(config: Config): Record<Language, string> {
  return Object.fromEntries(
    LANGUAGES.map((lang) => [lang, JSON.stringify(studioWebManifest(lang, manifestTexts(lang, config.BRAND_NAME)))]),
  ) as Record<Language, string>;
}

/**
 * A digest of everything the service worker keeps that this server makes: the app's pages in both
 * languages (build and configuration, the year included) and the manifests. When it changes, the
 * worker's script changes, and browsers install the new worker.
 */
export function studioRevision(site: Site, manifests: Record<Language, string>): string {
  const digest = createHash('sha256');
  for (const lang of LANGUAGES) {
    for (const page of STUDIO_PAGES) digest.update(`${lang} ${page}\n`).update(site.page(lang, page)?.html ?? '');
    digest.update(manifests[lang]);
  }
  return digest.digest('hex').slice(0, 16);
}

interface Script {
  /** The page object the revision was computed from: pages are rendered again when the year changes. */
  basis: unknown;
  body: string;
  br: Buffer;
  gzip: Buffer;
}

export function registerStudioOffline(app: FastifyInstance, site: Site, config: Config) {
  const manifests = studioManifests(config);
  app.get(STUDIO_MANIFEST_PATH, (request, reply) => {
    const query = (request.query as Record<string, unknown>).lang;
    // Browsers fetch manifests without cookies: the page's link names its language.
    const lang = negotiateLanguage({
      query: typeof query === 'string' ? query : undefined,
      cookie: request.cookies[LANGUAGE_COOKIE],
      acceptLanguage: request.headers['accept-language'],
    });
    return reply
      .type('application/manifest+json; charset=utf-8')
      .header('content-language', lang)
      .header('vary', 'Cookie, Accept-Language')
      .header('cache-control', 'no-cache')
      .send(manifests[lang]);
  });

  const scriptFile = path.join(site.clientDir, STUDIO_SW_PATH.slice(1));
  if (!existsSync(scriptFile)) return;
  const template = readFileSync(scriptFile, 'utf8');
  let script: Script | undefined;
  const currentScript = (): Script => {
    const basis = site.page(LANGUAGES[0], STUDIO_PAGES[0]);
    if (script && script.basis === basis) return script;
    const body = template.replaceAll(STUDIO_REVISION_TOKEN, studioRevision(site, manifests));
    script = {
      basis,
      body,
      br: brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
      gzip: gzipSync(body, { level: 9 }),
    };
    return script;
  };
  currentScript();

  app.get(STUDIO_SW_PATH, (request, reply) => {
    const { body, br, gzip } = currentScript();
    // Browsers compare the script with their copy at each visit of the app: never from a cache.
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('vary', 'Accept-Encoding')
      .header('content-security-policy', STUDIO_SW_CSP);
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    if (encoding === 'br') return reply.header('content-encoding', 'br').send(br);
    if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(gzip);
    return reply.send(body);
  });
}
