import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import fastifyStatic, { type FastifyStaticOptions } from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  LANGUAGES,
  LANGUAGE_COOKIE,
  LANDING_PAGE,
  PUBLIC_PAGES,
  isLanguage,
  type Language,
} from '@skanova/shared/site/constants';
import { ADMIN_PAGES } from '@skanova/shared/admin/pages';
import { AFFILIATE_PAGES } from '@skanova/shared/affiliate/constants';
import { negotiateLanguage } from '@skanova/shared/i18n/negotiate';
import { parseLandingPath } from '@skanova/shared/landing/landing-path';
import type { Config } from '../config.ts';
import { escapeHtml } from '../lib/html.ts';
import { isApiPath } from './callable.ts';
import { SERVED_PAGES } from '@skanova/shared/site/pages';
import { STUDIO_PAGES, isStudioPage } from '@skanova/shared/studio/constants';
import { STUDIO_PERMISSIONS_POLICY } from './security-headers.ts';
import { STUDIO_SW_PATH, STUDIO_WORKER_DIR } from '@skanova/shared/studio/offline';

// Serves the prerendered site: one HTML file per page and language, chosen per request (docs/product/rules-and-constants.md#languages),
// with the configured public settings substituted and a CSP listing that file's inline-script hashes.

const ONE_YEAR_SECONDS = 31_536_000;

export interface PageFile {
  html: string;
  csp: string;
  /** Compressed once per start; chosen by Accept-Encoding. */
  br: Buffer;
  gzip: Buffer;
}

export interface Site {
  /** The page for a path in a language, or undefined when the path is not a page. */
  page(lang: Language, pagePath: string): PageFile | undefined;
  clientDir: string;
}

/** The public settings the pages show: the browser reads the same values from #sk-config. */
export function publicSiteConfig(config: Config, year: number) {
  return {
    brandName: config.BRAND_NAME,
    publicUrl: config.publicUrl,
    appUrlScheme: config.APP_URL_SCHEME,
    appStoreUrl: config.APP_STORE_URL,
    playStoreUrl: config.PLAY_STORE_URL,
    webAppUrl: config.WEB_APP_URL,
    instagramUrl: config.INSTAGRAM_URL,
    twitterUrl: config.TWITTER_URL,
    facebookUrl: config.FACEBOOK_URL,
    linkedinUrl: config.LINKEDIN_URL,
    supportEmail: config.SUPPORT_EMAIL,
    dpoEmail: config.DPO_EMAIL,
    companyAddress: config.COMPANY_ADDRESS,
    year: String(year),
    supportPhone: config.SUPPORT_PHONE || null,
    liveChatUrl: config.LIVE_CHAT_URL ?? null,
    vitalsSampleRate: config.VITALS_SAMPLE_RATE,
  };
}

/** Replaces the build's `%%SK:key%%` tokens and fills the #sk-config JSON block. */
export function substituteConfig(html: string, values: Record<string, string | number | null>): string {
  const json = JSON.stringify(values).replaceAll('<', '\\u003c');
  return html
    .replace(/(<script id="sk-config" type="application\/json">)\{\}(<\/script>)/, `$1${json}$2`)
    .replace(/%%SK:([a-zA-Z]+)%%/g, (token, key: string) => {
      const value = values[key];
      return typeof value === 'string' ? escapeHtml(value) : token;
    });
}

/** sha256 sources of every inline script that executes (data blocks do not). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? '';
    if (/\bsrc\s*=/.test(attributes) || /type\s*=\s*"application\/(ld\+)?json"/.test(attributes)) continue;
    hashes.push(
      `'sha256-${createHash('sha256')
        .update(match[2] ?? '')
        .digest('base64')}'`,
    );
  }
  return [...new Set(hashes)];
}

/**
 * The web app's pages (ADR 010) also start the analysis worker and may compile WebAssembly
 * (`'wasm-unsafe-eval'`: compiling, never `eval`); every other page keeps the strict policy.
 */
export function pageCsp(scriptHashes: string[], config: Config, options: { app?: boolean } = {}): string {
  const appScript = options.app ? ["'wasm-unsafe-eval'"] : [];
  return [
    "default-src 'self'",
    ['script-src', "'self'", ...scriptHashes, ...appScript].join(' '),
    ...(options.app ? ["worker-src 'self'"] : []),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "manifest-src 'self'",
    ...(config.isHttps ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

function htmlFileFor(clientDir: string, pagePath: string): string {
  return pagePath === '/' ? path.join(clientDir, 'index.html') : path.join(clientDir, pagePath, 'index.html');
}

/** Loads every prerendered page of both languages; pages are rebuilt when the year changes. */
export function loadSite(buildDir: string, config: Config, now: () => Date): Site {
  const clientDirs = Object.fromEntries(LANGUAGES.map((lang) => [lang, path.join(buildDir, lang, 'client')])) as Record<
    Language,
    string
  >;
  for (const dir of Object.values(clientDirs)) {
    if (!existsSync(dir)) throw new Error(`The site is not built (${dir} is missing): run "npm run build".`);
  }
  const pagePaths = SERVED_PAGES;
  const raw = new Map<string, string>();
  for (const lang of LANGUAGES) {
    for (const pagePath of pagePaths)
      raw.set(`${lang} ${pagePath}`, readFileSync(htmlFileFor(clientDirs[lang], pagePath), 'utf8'));
  }
  const render = (year: number) => {
    const values = publicSiteConfig(config, year);
    const next = new Map<string, PageFile>();
    for (const [key, html] of raw) {
      const substituted = substituteConfig(html, values);
      next.set(key, {
        html: substituted,
        csp: pageCsp(inlineScriptHashes(substituted), config, { app: isStudioPage(key.slice(key.indexOf(' ') + 1)) }),
        br: brotliCompressSync(substituted, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
        gzip: gzipSync(substituted, { level: 9 }),
      });
    }
    return next;
  };
  // Rendered (and compressed) at start, not on the first visitor's request; again when the year changes.
  let cachedYear = now().getUTCFullYear();
  let cache = render(cachedYear);
  return {
    clientDir: clientDirs.fr,
    page(lang, pagePath) {
      const year = now().getUTCFullYear();
      if (year !== cachedYear) {
        cache = render(year);
        cachedYear = year;
      }
      return cache.get(`${lang} ${pagePath}`);
    },
  };
}

function requestLanguage(request: FastifyRequest, reply: FastifyReply): Language {
  const query = (request.query as Record<string, unknown>).lang;
  const lang = negotiateLanguage({
    query: typeof query === 'string' ? query : undefined,
    cookie: request.cookies[LANGUAGE_COOKIE],
    acceptLanguage: request.headers['accept-language'],
  });
  if (typeof query === 'string' && isLanguage(query.toLowerCase())) {
    reply.setCookie(LANGUAGE_COOKIE, lang, { path: '/', maxAge: ONE_YEAR_SECONDS, sameSite: 'lax' });
  }
  return lang;
}

/** br, then gzip, when the client accepts them (q=0 refuses). */
export function preferredEncoding(header: string | undefined): 'br' | 'gzip' | undefined {
  if (!header) return undefined;
  const accepted = new Set(
    header
      .split(',')
      .map((part) => part.trim().toLowerCase().split(';'))
      .filter(([, q]) => !q || !/^\s*q=0(\.0*)?\s*$/.test(q))
      .map(([name]) => name?.trim()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
}

/** Which prerendered page answers a path: the page itself, the landing for its aliases, or none. */
export function pageForPath(pathname: string, search: string): string | undefined {
  const normalised = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if ((PUBLIC_PAGES as readonly string[]).includes(normalised)) return normalised;
  if ((AFFILIATE_PAGES as readonly string[]).includes(normalised)) return normalised;
  if ((ADMIN_PAGES as readonly string[]).includes(normalised)) return normalised;
  if ((STUDIO_PAGES as readonly string[]).includes(normalised)) return normalised;
  if (parseLandingPath(normalised, search)) return LANDING_PAGE;
  return undefined;
}

/** The web app's analysis worker (Vite names it after its module, `analysis.worker-<hash>.js`), or its compressed copy. */
export function isAnalysisWorker(filePath: string): boolean {
  return /(^|[\\/])analysis\.worker-[\w-]+\.js(\.br|\.gz)?$/.test(filePath);
}

/** What the analysis worker may do: load its own chunks, compile WebAssembly, fetch from this origin. */
export const ANALYSIS_WORKER_CSP = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "connect-src 'self'",
].join('; ');

export async function registerSite(app: FastifyInstance, site: Site) {
  // Hashed assets never change; everything else is revalidated. HTML is never served from here.
  const hashedFiles = {
    wildcard: true,
    index: false,
    allowedPath: (pathname: string) => !pathname.endsWith('.html'),
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply: FastifyReply, filePath: string) => {
      reply.header('cache-control', `public, max-age=${ONE_YEAR_SECONDS}, immutable`);
      // A worker runs under the policy of its own script's answer, not the page's: the analysis
      // worker may compile the WebAssembly runtime and fetch the models, from this origin only.
      if (isAnalysisWorker(filePath)) reply.header('content-security-policy', ANALYSIS_WORKER_CSP);
    },
  } satisfies Omit<FastifyStaticOptions, 'root'>;
  await app.register(fastifyStatic, { root: path.join(site.clientDir, 'assets'), prefix: '/assets/', ...hashedFiles });
  // The analysis worker's folder, under the web app's service worker scope (ADR 011).
  const workerDir = path.join(site.clientDir, STUDIO_WORKER_DIR.slice(1, -1));
  if (existsSync(workerDir))
    await app.register(fastifyStatic, {
      root: workerDir,
      prefix: STUDIO_WORKER_DIR,
      decorateReply: false,
      ...hashedFiles,
    });
  // The web app's service worker has its own route (studio-offline.ts).
  const rootFiles = readdirSync(site.clientDir).filter(
    (name) =>
      !name.endsWith('.html') && `/${name}` !== STUDIO_SW_PATH && statSync(path.join(site.clientDir, name)).isFile(),
  );
  for (const name of rootFiles) {
    const body = readFileSync(path.join(site.clientDir, name));
    const type = name.endsWith('.svg')
      ? 'image/svg+xml'
      : name.endsWith('.png')
        ? 'image/png'
        : 'application/octet-stream';
    app.get(`/${name}`, (_request, reply) =>
      reply.type(type).header('cache-control', 'public, max-age=86400').send(body),
    );
  }

  app.get('/*', (request, reply) => {
    const url = new URL(request.url, 'http://local');
    if (isApiPath(url.pathname)) return reply.callNotFound();
    // Looks like a file (assets, source maps, images): a plain 404, never the home page.
    if (/\.[a-z0-9]{1,8}$/i.test(url.pathname)) return reply.callNotFound();
    const pagePath = pageForPath(url.pathname, url.search);
    if (!pagePath) return reply.redirect('/', 302);
    const lang = requestLanguage(request, reply);
    const page = site.page(lang, pagePath);
    if (!page) return reply.redirect('/', 302);
    reply
      .type('text/html; charset=utf-8')
      .header('content-language', lang)
      .header('vary', 'Cookie, Accept-Language, Accept-Encoding')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', page.csp);
    // The camera for the web app's pages only (security-headers.ts).
    if (isStudioPage(pagePath)) reply.header('permissions-policy', STUDIO_PERMISSIONS_POLICY);
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    if (encoding === 'br') return reply.header('content-encoding', 'br').send(page.br);
    if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(page.gzip);
    return reply.send(page.html);
  });
}
