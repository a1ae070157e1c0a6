import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANDING_PAGE, LANGUAGES, PUBLIC_PAGES } from '@skanova/shared/site/constants';
import { brotliCompressSync } from 'node:zlib';
import { STUDIO_HOME, STUDIO_PAGES, STUDIO_SCAN_PAGE } from '@skanova/shared/studio/constants';
import { type TestApp, createTestApp } from './helpers/app.ts';
import { SERVED_PAGES } from '@skanova/shared/site/pages';
import { AFFILIATE_INDEXED_PAGES } from '@skanova/shared/affiliate/constants';

// Serving the prerendered site (docs/product/rules-and-constants.md#languages): language negotiation, headers, redirects, 404s,
// robots and sitemap. The test builds a small site of its own in a temporary folder, shaped like
// the real build (<dir>/<lang>/client/<page>/index.html + assets), so it needs no `npm run build`.

const INLINE_SCRIPT = 'window.__ready = true;';
const INLINE_HASH = `'sha256-${createHash('sha256').update(INLINE_SCRIPT).digest('base64')}'`;
const ASSET_BODY = 'export const answer = 42;\n';

function fixturePage(lang: string, page: string): string {
  return [
    `<!DOCTYPE html><html lang="${lang}" dir="ltr"><head><meta charSet="utf-8"/>`,
    `<title>${lang} ${page} — %%SK:brandName%%</title>`,
    `<link rel="canonical" href="%%SK:publicUrl%%${page}?lang=${lang}"/>`,
    '<link rel="modulepreload" href="/assets/app-abc123.js"/></head><body>',
    `<main data-page="${page}" data-lang="${lang}">© %%SK:year%% %%SK:brandName%% %%SK:unknownKey%%</main>`,
    '<script id="sk-config" type="application/json">{}</script>',
    '<script id="sk-i18n" type="application/json">{"lang":"x"}</script>',
    `<script>${INLINE_SCRIPT}</script>`,
    '<script type="module" src="/assets/app-abc123.js"></script>',
    '</body></html>',
  ].join('');
}

function createFixtureBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'site-fixture-'));
  for (const lang of LANGUAGES) {
    const client = path.join(dir, lang, 'client');
    for (const page of SERVED_PAGES) {
      const pageDir = page === '/' ? client : path.join(client, page);
      mkdirSync(pageDir, { recursive: true });
      writeFileSync(path.join(pageDir, 'index.html'), fixturePage(lang, page));
    }
    mkdirSync(path.join(client, 'assets'), { recursive: true });
    writeFileSync(path.join(client, 'assets', 'app-abc123.js'), ASSET_BODY);
    writeFileSync(path.join(client, 'assets', 'stray.html'), '<p>never served</p>');
    writeFileSync(path.join(client, 'assets', 'analysis.worker-abc123.js'), ASSET_BODY);
    writeFileSync(path.join(client, 'assets', 'analysis.worker-abc123.js.br'), brotliCompressSync(ASSET_BODY));
    writeFileSync(path.join(client, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  }
  return dir;
}

let fixtureDir: string;
let t: TestApp;

beforeAll(async () => {
  fixtureDir = createFixtureBuild();
  t = await createTestApp({
    serveSite: true,
    env: {
      WEB_BUILD_DIR: fixtureDir,
      BRAND_NAME: 'Glow & <Co>',
      VITALS_SAMPLE_RATE: '0.25',
      SUPPORT_PHONE: '+33 1 23 45 67 89',
    },
  });
});
afterAll(async () => {
  await t?.close();
  rmSync(fixtureDir, { recursive: true, force: true });
});

function get(url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url, headers });
}

const servedPage = (body: string) => /data-page="([^"]+)" data-lang="([^"]+)"/.exec(body)?.slice(1, 3);

describe('language negotiation', () => {
  it('answers French when nothing says otherwise', async () => {
    const response = await get('/');
    expect(response.statusCode).toBe(200);
    expect(servedPage(response.body)).toEqual(['/', 'fr']);
    expect(response.body.startsWith('<!DOCTYPE html><html lang="fr"')).toBe(true);
    expect(response.headers['content-language']).toBe('fr');
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('follows Accept-Language', async () => {
    const response = await get('/terms', { 'accept-language': 'en-GB,en;q=0.9,fr;q=0.5' });
    expect(servedPage(response.body)).toEqual(['/terms', 'en']);
    expect(response.headers['content-language']).toBe('en');
    expect((await get('/terms', { 'accept-language': 'de-DE,fr;q=0.3,en;q=0.2' })).headers['content-language']).toBe(
      'fr',
    );
    expect((await get('/terms', { 'accept-language': 'de-DE' })).headers['content-language']).toBe('fr');
  });

  it('lets the lang cookie beat Accept-Language', async () => {
    const response = await get('/privacy', { 'accept-language': 'en-US', cookie: 'lang=fr' });
    expect(servedPage(response.body)).toEqual(['/privacy', 'fr']);
    expect((await get('/privacy', { 'accept-language': 'fr-FR', cookie: 'lang=en' })).headers['content-language']).toBe(
      'en',
    );
  });

  it('lets ?lang= beat the cookie and remember the choice in the cookie', async () => {
    const response = await get('/support?lang=en', { cookie: 'lang=fr', 'accept-language': 'fr' });
    expect(servedPage(response.body)).toEqual(['/support', 'en']);
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/^lang=en;/);
    expect(cookie).toMatch(/Max-Age=31536000/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/SameSite=Lax/);
  });

  it('ignores an unsupported ?lang= (no cookie, the other signals decide)', async () => {
    const response = await get('/?lang=de', { 'accept-language': 'en' });
    expect(response.headers['content-language']).toBe('en');
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('sends Vary so caches keep the languages apart, and revalidation of HTML', async () => {
    const response = await get('/');
    expect(response.headers.vary).toMatch(/Cookie/);
    expect(response.headers.vary).toMatch(/Accept-Language/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  });
});

describe('pages', () => {
  it('serves every public page in both languages, with or without a trailing slash', async () => {
    for (const lang of LANGUAGES) {
      for (const page of PUBLIC_PAGES) {
        for (const url of page === '/' ? ['/'] : [page, `${page}/`]) {
          const response = await get(`${url}?lang=${lang}`);
          expect(response.statusCode, `${url} ${lang}`).toBe(200);
          expect(servedPage(response.body), `${url} ${lang}`).toEqual([page, lang]);
        }
      }
    }
  });

  it('serves the landing page for all of its addresses', async () => {
    for (const url of [
      '/download',
      '/download?ref=TESTCODE',
      '/ref/TESTCODE',
      '/app/ref/TESTCODE',
      '/app/download',
      '/app/ref',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(servedPage(response.body)?.[0], url).toBe(LANDING_PAGE);
    }
  });

  it('redirects unknown page paths to the home page', async () => {
    for (const url of ['/nope', '/nope/deeper', '/app/unknown-type/CODE', '/ref', '/ref/A/B', '/terms/extra']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(302);
      expect(response.headers.location, url).toBe('/');
    }
  });

  it('answers unknown API paths with 404 in the protocol shape', async () => {
    for (const url of ['/api/unknown', '/api/fn', '/api/fn/doesNotExist']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error.status, url).toBe('NOT_FOUND');
    }
    expect((await get('/api')).statusCode).toBe(404);
  });

  it('answers a malformed address with a client error, never a server error', async () => {
    const response = await get('/%E0%A4%A');
    expect(response.statusCode).toBeGreaterThanOrEqual(300);
    expect(response.statusCode).toBeLessThan(500);
  });

  it('answers missing files with a plain 404, never the home page', async () => {
    for (const url of [
      '/assets/nope.js',
      '/nope.js',
      '/images/logo.png',
      '/index.html',
      '/terms/index.html',
      '/assets/stray.html',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('<html');
    }
  });

  it('serves hashed assets for a year and root files for a day', async () => {
    const asset = await get('/assets/app-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe(ASSET_BODY);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(asset.headers['content-type'])).toMatch(/javascript/);
    const favicon = await get('/favicon.svg');
    expect(favicon.statusCode).toBe(200);
    expect(favicon.headers['content-type']).toBe('image/svg+xml');
  });
});

describe('configuration in the pages', () => {
  it('replaces the build tokens (escaped) and fills #sk-config', async () => {
    const { body } = await get('/');
    expect(body).not.toContain('%%SK:brandName%%');
    expect(body).not.toContain('%%SK:publicUrl%%');
    expect(body).toContain('Glow &amp; &lt;Co&gt;');
    expect(body).toContain('<link rel="canonical" href="http://localhost:3000/?lang=fr"/>');
    expect(body).toContain(`© ${t.clock.now.getUTCFullYear()} `);
    // Unknown tokens are left alone rather than emptied.
    expect(body).toContain('%%SK:unknownKey%%');
    const json = /<script id="sk-config" type="application\/json">(.*?)<\/script>/.exec(body)?.[1] ?? '';
    expect(json).not.toContain('<');
    const config = JSON.parse(json) as Record<string, unknown>;
    expect(config).toMatchObject({
      brandName: 'Glow & <Co>',
      publicUrl: 'http://localhost:3000',
      supportPhone: '+33 1 23 45 67 89',
      liveChatUrl: null,
      vitalsSampleRate: 0.25,
    });
  });

  it('follows the clock into a new year', async () => {
    const before = t.clock.now;
    t.clock.now = new Date(Date.UTC(2031, 0, 1, 0, 0, 1));
    try {
      expect((await get('/')).body).toContain('© 2031 ');
    } finally {
      t.clock.now = before;
    }
  });
});

describe('security headers', () => {
  it("sends each page its own CSP: inline-script hashes, no 'unsafe-inline' scripts, no framing", async () => {
    const response = await get('/');
    const csp = String(response.headers['content-security-policy']);
    const scriptSrc = csp.split(';').find((directive) => directive.trim().startsWith('script-src')) ?? '';
    expect(scriptSrc).toContain("'self'");
    expect(scriptSrc).toContain(INLINE_HASH);
    expect(scriptSrc).not.toContain('unsafe-inline');
    expect(scriptSrc).not.toContain('unsafe-eval');
    // Data blocks (application/json) are not scripts: hashing them would only bloat the header.
    expect(scriptSrc.match(/sha256-/g)).toHaveLength(1);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBeDefined();
    // Plain HTTP (local): no HSTS.
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it("lets only the web app's pages compile WebAssembly and start their worker; every other page stays strict", async () => {
    const directives = (csp: string) => new Map(csp.split(';').map((part) => [part.trim().split(' ')[0], part.trim()]));
    for (const page of STUDIO_PAGES) {
      const csp = directives(String((await get(page)).headers['content-security-policy']));
      expect(csp.get('script-src'), page).toContain("'wasm-unsafe-eval'");
      expect(csp.get('script-src'), page).not.toMatch(/'unsafe-eval'|'unsafe-inline'/);
      expect(csp.get('worker-src'), page).toBe("worker-src 'self'");
      expect(csp.get('connect-src'), page).toBe("connect-src 'self'");
    }
    for (const page of SERVED_PAGES.filter((path) => !(STUDIO_PAGES as readonly string[]).includes(path))) {
      const csp = String((await get(page)).headers['content-security-policy']);
      expect(csp, page).not.toContain('wasm-unsafe-eval');
      expect(csp, page).not.toContain('worker-src');
    }
  });

  it("gives the analysis worker its own policy: this origin's scripts, WebAssembly and fetches only", async () => {
    for (const encoding of ['identity', 'br']) {
      const response = await get('/assets/analysis.worker-abc123.js', { 'accept-encoding': encoding });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-security-policy'], encoding).toBe(
        "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'",
      );
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    const other = await get('/assets/app-abc123.js');
    expect(String(other.headers['content-security-policy'])).not.toContain('wasm-unsafe-eval');
  });

  it("lets only the web app's pages use the camera (Permissions-Policy); every other answer refuses it", async () => {
    const features = (policy: unknown) =>
      new Map(
        String(policy)
          .split(',')
          .map((part) => part.trim().split('=') as [string, string]),
      );
    for (const page of STUDIO_PAGES) {
      const policy = features((await get(page)).headers['permissions-policy']);
      expect(policy.get('camera'), page).toBe('(self)');
      expect(policy.get('microphone'), page).toBe('()');
      expect(policy.get('geolocation'), page).toBe('()');
    }
    const others = SERVED_PAGES.filter((path) => !(STUDIO_PAGES as readonly string[]).includes(path));
    for (const url of [...others, '/api/unknown', '/assets/app-abc123.js', '/nope', '/robots.txt', '/studio-not']) {
      const policy = features((await get(url)).headers['permissions-policy']);
      expect(policy.get('camera'), url).toBe('()');
      expect(policy.get('microphone'), url).toBe('()');
    }
  });

  it('sends security headers on API answers, 404s and redirects too', async () => {
    for (const url of ['/api/unknown', '/assets/nope.js', '/nope', '/robots.txt']) {
      const response = await get(url);
      expect(String(response.headers['content-security-policy']), url).toContain("frame-ancestors 'none'");
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
    }
  });

  it('adds HSTS and upgrade-insecure-requests behind HTTPS', async () => {
    const secure = await createTestApp({
      serveSite: true,
      env: { WEB_BUILD_DIR: fixtureDir, PUBLIC_URL: 'https://www.example.com' },
    });
    try {
      const response = await secure.app.inject({ method: 'GET', url: '/' });
      expect(response.headers['strict-transport-security']).toMatch(/max-age=31536000/);
      expect(String(response.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
      expect(response.body).toContain('<link rel="canonical" href="https://www.example.com/?lang=fr"/>');
    } finally {
      await secure.close();
    }
  });
});

describe('robots.txt and sitemap.xml', () => {
  it('serves robots.txt pointing at the sitemap and keeping crawlers out of the API', async () => {
    const response = await get('/robots.txt');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.body).toContain('User-agent: *');
    expect(response.body).toContain('Disallow: /api/');
    expect(response.body).toContain('Sitemap: http://localhost:3000/sitemap.xml');
  });

  it('lists every indexable page in both languages with hreflang alternates, and not the landing', async () => {
    const response = await get('/sitemap.xml');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    const xml = response.body;
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    const indexed = [...PUBLIC_PAGES, ...AFFILIATE_INDEXED_PAGES, STUDIO_HOME];
    expect(locs).toHaveLength(indexed.length * LANGUAGES.length);
    for (const page of indexed) {
      for (const lang of LANGUAGES) {
        expect(locs).toContain(`http://localhost:3000${page}?lang=${lang}`);
        expect(xml).toContain(
          `<xhtml:link rel="alternate" hreflang="${lang}" href="http://localhost:3000${page}?lang=${lang}"/>`,
        );
      }
    }
    expect(xml).not.toContain('/download');
    expect(xml).not.toContain('/ref/');
    expect(xml).not.toContain(STUDIO_SCAN_PAGE);
  });
});
