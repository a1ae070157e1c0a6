import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '@skanova/shared/site/constants';
import { SERVED_PAGES } from '@skanova/shared/site/pages';
import { STUDIO_PAGES } from '@skanova/shared/studio/constants';
import {
  STUDIO_ICONS,
  STUDIO_MANIFEST_PATH,
  STUDIO_REVISION_TOKEN,
  STUDIO_SW_PATH,
  STUDIO_SW_SCOPE,
} from '@skanova/shared/studio/offline';
import { type TestApp, createTestApp } from './helpers/app.ts';

// The web app offline and installable (ADR 011): the service worker's script and the web app manifest
// as the server sends them, the analysis worker's folder, and the public pages' policy left as it was.
// A small site of the test's own, shaped like the build, in a temporary folder.

const WORKER_BODY = 'self.onmessage = () => {};\n';
const SW_TEMPLATE = `const PRECACHE = [{ url: '/studio?lang=fr', revision: '${STUDIO_REVISION_TOKEN}' }];\n`;

function createFixtureBuild(pageMark = ''): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'studio-offline-fixture-'));
  for (const lang of LANGUAGES) {
    const client = path.join(dir, lang, 'client');
    for (const page of SERVED_PAGES) {
      const pageDir = page === '/' ? client : path.join(client, page);
      mkdirSync(pageDir, { recursive: true });
      writeFileSync(
        path.join(pageDir, 'index.html'),
        `<!DOCTYPE html><html lang="${lang}"><head><title>%%SK:brandName%% ${page}</title></head><body>© %%SK:year%%${pageMark}</body></html>`,
      );
    }
    mkdirSync(path.join(client, 'assets'), { recursive: true });
    mkdirSync(path.join(client, 'studio-assets'), { recursive: true });
    writeFileSync(path.join(client, 'studio-assets', 'analysis.worker-abc123.js'), WORKER_BODY);
    writeFileSync(path.join(client, STUDIO_SW_PATH.slice(1)), SW_TEMPLATE);
    for (const icon of STUDIO_ICONS) writeFileSync(path.join(client, icon.path.slice(1)), Buffer.from('\x89PNG'));
  }
  return dir;
}

let fixtureDir: string;
let t: TestApp;

beforeAll(async () => {
  fixtureDir = createFixtureBuild();
  t = await createTestApp({ serveSite: true, env: { WEB_BUILD_DIR: fixtureDir, BRAND_NAME: 'Glow' } });
});
afterAll(async () => {
  await t?.close();
  rmSync(fixtureDir, { recursive: true, force: true });
});

function get(url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url, headers });
}

/** The revision the server wrote into the worker's script. */
async function servedRevision(app: TestApp['app']): Promise<string> {
  const { body } = await app.inject({ method: 'GET', url: STUDIO_SW_PATH });
  return /revision: '([^']*)'/.exec(body)?.[1] ?? '';
}

describe('the service worker script', () => {
  it('is always revalidated, runs under a policy of its own and is compressed', async () => {
    const response = await get(STUDIO_SW_PATH);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; connect-src 'self'",
    );
    expect(response.headers['service-worker-allowed']).toBeUndefined();
    const compressed = await get(STUDIO_SW_PATH, { 'accept-encoding': 'br' });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(compressed.rawPayload).toString()).toBe(response.body);
  });

  it("carries the revision of the app's pages as this server serves them", async () => {
    const revision = await servedRevision(t.app);
    expect(revision).toMatch(/^[0-9a-f]{16}$/);
    expect((await get(STUDIO_SW_PATH)).body).not.toContain(STUDIO_REVISION_TOKEN);
    // Same build and settings: same script, so browsers keep their worker.
    expect(await servedRevision(t.app)).toBe(revision);
  });

  it('changes when a new deployment changes a page of the app, or when the settings do', async () => {
    const revision = await servedRevision(t.app);
    const changedBuild = createFixtureBuild('<p>release 2</p>');
    const deployments = [
      await createTestApp({ serveSite: true, env: { WEB_BUILD_DIR: changedBuild, BRAND_NAME: 'Glow' } }),
      await createTestApp({ serveSite: true, env: { WEB_BUILD_DIR: fixtureDir, BRAND_NAME: 'Radiance' } }),
    ];
    try {
      for (const deployment of deployments) expect(await servedRevision(deployment.app)).not.toBe(revision);
    } finally {
      for (const deployment of deployments) await deployment.close();
      rmSync(changedBuild, { recursive: true, force: true });
    }
  });

  it('changes with the year the pages show', async () => {
    const revision = await servedRevision(t.app);
    const before = t.clock.now;
    t.clock.now = new Date(Date.UTC(before.getUTCFullYear() + 1, 0, 1, 0, 0, 1));
    try {
      expect(await servedRevision(t.app)).not.toBe(revision);
    } finally {
      t.clock.now = before;
    }
    expect(await servedRevision(t.app)).toBe(revision);
  });
});

describe('the web app manifest', () => {
  it("is the app's, in the asked language, with the configured brand, and revalidated", async () => {
    for (const lang of LANGUAGES) {
      const response = await get(`${STUDIO_MANIFEST_PATH}?lang=${lang}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-language']).toBe(lang);
      // Asking for a language here is not a choice of the visitor's: no cookie.
      expect(response.headers['set-cookie']).toBeUndefined();
      const manifest = response.json();
      expect(manifest).toMatchObject({
        id: STUDIO_SW_SCOPE,
        name: 'Glow Studio',
        short_name: 'Glow',
        lang,
        start_url: '/studio',
        scope: STUDIO_SW_SCOPE,
        display: 'standalone',
        theme_color: '#504099',
        background_color: '#ffffff',
      });
      expect(manifest.description).not.toBe('');
      expect(manifest.icons).toEqual([
        { src: '/studio-icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/studio-icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/studio-icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ]);
    }
    const [fr, en] = await Promise.all(LANGUAGES.map((lang) => get(`${STUDIO_MANIFEST_PATH}?lang=${lang}`)));
    expect(fr!.json().description).not.toBe(en!.json().description);
  });

  it('without ?lang= follows the cookie, then the browser', async () => {
    expect((await get(STUDIO_MANIFEST_PATH, { cookie: 'lang=en' })).json().lang).toBe('en');
    expect((await get(STUDIO_MANIFEST_PATH, { 'accept-language': 'en-GB' })).json().lang).toBe('en');
    const answer = await get(STUDIO_MANIFEST_PATH);
    expect(answer.json().lang).toBe('fr');
    expect(answer.headers.vary).toMatch(/Accept-Language/);
  });

  it('has its icons served', async () => {
    for (const icon of STUDIO_ICONS) {
      const response = await get(icon.path);
      expect(response.statusCode, icon.path).toBe(200);
      expect(response.headers['content-type'], icon.path).toBe('image/png');
    }
  });
});

describe('the analysis worker under the service worker scope', () => {
  it('is a hashed asset with its own policy', async () => {
    const response = await get('/studio-assets/analysis.worker-abc123.js');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(WORKER_BODY);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'",
    );
    expect((await get('/studio-assets/nope.js')).statusCode).toBe(404);
    expect((await get('/studio-assets/index.html')).statusCode).toBe(404);
  });
});

describe('the pages', () => {
  it("let the app's pages read their manifest; the public pages keep their policy, without a worker", async () => {
    for (const page of SERVED_PAGES) {
      const csp = String((await get(page)).headers['content-security-policy']);
      expect(csp, page).toContain("manifest-src 'self'");
      if ((STUDIO_PAGES as readonly string[]).includes(page)) expect(csp, page).toContain("worker-src 'self'");
      else expect(csp, page).not.toMatch(/worker-src|wasm-unsafe-eval/);
    }
  });
});
