// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@skanova/shared/site/constants';
import { STUDIO_PAGES } from '@skanova/shared/studio/constants';
import { STUDIO_ICONS, STUDIO_REVISION_TOKEN } from '@skanova/shared/studio/offline';
import {
  type AppPageHtml,
  type ClientBuild,
  STUDIO_PRECACHE_BUDGET_BYTES,
  type ViteManifest,
  filesNamedBy,
  namespacesOf,
  studioPrecache,
} from './studio-precache';

// What the web app's service worker keeps, on a build shaped like ours: the app's pages name the
// shell's chunks, the app's route loads its pages' chunk, which names the analysis worker and the
// models' folder; the shell holds the loaders of every namespace's strings and two lazy helpers; the
// public site has routes and strings of its own.

const MODELS = 'assets/studio-models/0123456789ab/';
const WORKER = 'studio-assets/analysis.worker-W0rker12.js';

const manifest: ViteManifest = {
  'app/entry.client.tsx': { file: 'assets/entry.client-Entry123.js', isEntry: true, imports: ['_vendor', '_app'] },
  _vendor: { file: 'assets/vendor-Vendor12.js' },
  _app: {
    file: 'assets/app-App12345.js',
    imports: ['_vendor'],
    css: ['assets/app-App12345.css'],
    assets: ['assets/face-scan-Face1234.svg'],
    dynamicImports: [
      ...LANGUAGES.flatMap((lang) =>
        ['common', 'privacy', 'home'].map((ns) => `../../packages/shared/src/i18n/${lang}/${ns}.json`),
      ),
      'app/features/consent/consent-panel.tsx',
    ],
  },
  'app/features/consent/consent-panel.tsx': {
    file: 'assets/consent-panel-Panel123.js',
    imports: ['_app'],
    css: ['assets/consent-panel-Panel123.css'],
  },
  'app/root.tsx?__react-router-build-client-route': {
    file: 'assets/root-Root1234.js',
    isEntry: true,
    imports: ['_app'],
    css: ['assets/root-Root1234.css'],
  },
  'app/routes/studio.tsx?__react-router-build-client-route': {
    file: 'assets/studio-Route123.js',
    isEntry: true,
    imports: ['_app'],
    dynamicImports: ['app/features/studio/studio-pages.tsx'],
  },
  'app/features/studio/studio-pages.tsx': {
    file: 'assets/studio-pages-Pages123.js',
    imports: ['_app'],
    css: ['assets/studio-pages-Pages123.css'],
    assets: [WORKER],
    dynamicImports: LANGUAGES.map((lang) => `../../packages/shared/src/i18n/${lang}/studio.json`),
  },
  'app/routes/privacy.tsx?__react-router-build-client-route': {
    file: 'assets/privacy-Privacy1.js',
    isEntry: true,
    imports: ['_app', '_public-layout'],
  },
  '_public-layout': { file: 'assets/public-layout-Layout12.js', css: ['assets/public-layout-Layout12.css'] },
  ...Object.fromEntries(
    LANGUAGES.flatMap((lang) =>
      ['common', 'privacy', 'home', 'studio'].map((ns) => [
        `../../packages/shared/src/i18n/${lang}/${ns}.json`,
        { file: `assets/${ns}-${lang}String.js`, isDynamicEntry: true },
      ]),
    ),
  ),
};

function pageHtml(lang: string): string {
  const resources = JSON.stringify({ lang, resources: { common: { a: 'b' }, studio: { c: 'd' } } });
  return [
    `<!DOCTYPE html><html lang="${lang}"><head>`,
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml"/>',
    '<link rel="manifest" href="/studio.webmanifest?lang=fr"/>',
    '<link rel="apple-touch-icon" href="/studio-icon-192.png"/>',
    '<link rel="modulepreload" href="/assets/manifest-0a1b2c3d.js"/>',
    '<link rel="modulepreload" href="/assets/entry.client-Entry123.js"/>',
    '<link rel="modulepreload" href="/assets/root-Root1234.js"/>',
    '<link rel="modulepreload" href="/assets/studio-Route123.js"/>',
    `<link rel="canonical" href="%%SK:publicUrl%%/studio?lang=${lang}"/>`,
    '<link rel="stylesheet" href="/assets/app-App12345.css#"/>',
    '</head><body><a href="/">Site</a><a href="/studio/scan">Scan</a>',
    `<script id="sk-i18n" type="application/json">${resources}</script>`,
    '<script type="module">import("/assets/entry.client-Entry123.js");</script>',
    '</body></html>',
  ].join('');
}

function build(overrides: Partial<ClientBuild> = {}): ClientBuild {
  const files = new Map<string, number>();
  for (const chunk of Object.values(manifest)) {
    files.set(chunk.file, 1000);
    for (const file of [...(chunk.css ?? []), ...(chunk.assets ?? [])]) files.set(file, 500);
  }
  files.set('assets/manifest-0a1b2c3d.js', 2000);
  files.set(WORKER, 1_600_000);
  for (const model of ['blazeface.json', 'blazeface.bin', 'iris.bin', 'tfjs-backend-wasm-simd.wasm'])
    files.set(`${MODELS}${model}`, 1_000_000);
  files.set('assets/studio-models/old000000000/blazeface.bin', 1_000_000);
  files.set('favicon.svg', 300);
  for (const icon of STUDIO_ICONS) files.set(icon.path.slice(1), 5000);
  const pages: AppPageHtml[] = LANGUAGES.flatMap((lang) =>
    STUDIO_PAGES.map((path) => ({ path, lang, html: pageHtml(lang) })),
  );
  return {
    files,
    manifest,
    pages,
    readText: (file) => (file === 'assets/studio-pages-Pages123.js' ? `const MODELS_BASE = "/${MODELS}";` : ''),
    digest: (file) => `digest-of-${file}`,
    ...overrides,
  };
}

const urls = (entries: { url: string }[]) => entries.map((entry) => entry.url);

describe("the app's offline copy", () => {
  it("holds the shell, the app's route and pages, their styles and the lazy helpers the shell uses", () => {
    const list = urls(studioPrecache(build()));
    for (const file of [
      'assets/manifest-0a1b2c3d.js',
      'assets/entry.client-Entry123.js',
      'assets/vendor-Vendor12.js',
      'assets/app-App12345.js',
      'assets/app-App12345.css',
      'assets/face-scan-Face1234.svg',
      'assets/root-Root1234.js',
      'assets/root-Root1234.css',
      'assets/studio-Route123.js',
      'assets/studio-pages-Pages123.js',
      'assets/studio-pages-Pages123.css',
      'assets/consent-panel-Panel123.js',
      'assets/consent-panel-Panel123.css',
      'favicon.svg',
    ])
      expect(list).toContain(`/${file}`);
  });

  it('holds the strings the app uses, in both languages (the visitor may switch offline), and no other', () => {
    const list = urls(studioPrecache(build()));
    for (const lang of LANGUAGES) {
      expect(list).toContain(`/assets/common-${lang}String.js`);
      expect(list).toContain(`/assets/studio-${lang}String.js`);
      expect(list).not.toContain(`/assets/privacy-${lang}String.js`);
      expect(list).not.toContain(`/assets/home-${lang}String.js`);
    }
  });

  it("never holds the public site's own pages", () => {
    const list = urls(studioPrecache(build()));
    expect(list).not.toContain('/assets/privacy-Privacy1.js');
    expect(list).not.toContain('/assets/public-layout-Layout12.js');
    expect(list).not.toContain('/assets/public-layout-Layout12.css');
  });

  it('holds the analysis worker, and the models and runtime of the folder the app names (not an older one)', () => {
    const list = urls(studioPrecache(build()));
    expect(list).toContain(`/${WORKER}`);
    for (const model of ['blazeface.json', 'blazeface.bin', 'iris.bin', 'tfjs-backend-wasm-simd.wasm'])
      expect(list).toContain(`/${MODELS}${model}`);
    expect(list).not.toContain('/assets/studio-models/old000000000/blazeface.bin');
  });

  it('holds every page of the app and the manifest in each language, revised by the server', () => {
    const entries = studioPrecache(build());
    for (const lang of LANGUAGES) {
      for (const page of STUDIO_PAGES)
        expect(entries).toContainEqual(
          expect.objectContaining({ url: `${page}?lang=${lang}`, revision: STUDIO_REVISION_TOKEN }),
        );
      expect(entries).toContainEqual(
        expect.objectContaining({ url: `/studio.webmanifest?lang=${lang}`, revision: STUDIO_REVISION_TOKEN }),
      );
    }
  });

  it('revises by content only the files whose address does not change with it', () => {
    const entries = studioPrecache(build());
    const revision = (url: string) => entries.find((entry) => entry.url === url)?.revision;
    expect(revision('/assets/app-App12345.js')).toBeNull();
    expect(revision(`/${WORKER}`)).toBeNull();
    expect(revision(`/${MODELS}iris.bin`)).toBeNull();
    expect(revision('/favicon.svg')).toBe('digest-of-favicon.svg');
    for (const icon of STUDIO_ICONS) expect(revision(icon.path)).toBe(`digest-of-${icon.path.slice(1)}`);
    expect(new Set(urls(entries)).size).toBe(entries.length);
  });

  it('refuses a build the app would not work offline with', () => {
    // A worker outside the service worker's scope would fetch its models from the network.
    const elsewhere = 'assets/analysis.worker-W0rker12.js';
    const outOfScope = build({
      manifest: {
        ...manifest,
        'app/features/studio/studio-pages.tsx': {
          ...manifest['app/features/studio/studio-pages.tsx']!,
          assets: [elsewhere],
        },
      },
    });
    (outOfScope.files as Map<string, number>).delete(WORKER);
    (outOfScope.files as Map<string, number>).set(elsewhere, 1_600_000);
    expect(() => studioPrecache(outOfScope)).toThrow(/analysis worker is not in \/studio-assets\//);
    const missing = build();
    (missing.files as Map<string, number>).delete(WORKER);
    expect(() => studioPrecache(missing)).toThrow(/needs studio-assets\/analysis\.worker-W0rker12\.js/);
    expect(() => studioPrecache(build({ readText: () => '' }))).toThrow(/model folders/);
    const withoutModels = build();
    for (const file of [...withoutModels.files.keys()])
      if (file.startsWith(MODELS) && file.endsWith('.bin')) (withoutModels.files as Map<string, number>).delete(file);
    expect(() => studioPrecache(withoutModels)).toThrow(/lacks the models/);
    const withoutIcon = build();
    (withoutIcon.files as Map<string, number>).delete(STUDIO_ICONS[0]!.path.slice(1));
    expect(() => studioPrecache(withoutIcon)).toThrow(/install icon/);
    const oneLanguage = build();
    expect(() =>
      studioPrecache({ ...oneLanguage, pages: oneLanguage.pages.filter((page) => page.lang === 'fr') }),
    ).toThrow(/missing in en/);
  });

  it('refuses a copy heavier than its budget', () => {
    const heavy = build();
    (heavy.files as Map<string, number>).set(`${MODELS}iris.bin`, STUDIO_PRECACHE_BUDGET_BYTES);
    expect(() => studioPrecache(heavy)).toThrow(/over its/);
    const entries = studioPrecache(build());
    expect(entries.reduce((sum, entry) => sum + entry.bytes, 0)).toBeLessThan(STUDIO_PRECACHE_BUDGET_BYTES);
  });
});

describe('reading a prerendered page', () => {
  it('finds the files it names by address, not its links to pages', () => {
    const files = build().files;
    expect(filesNamedBy(pageHtml('fr'), files).sort()).toEqual(
      [
        'assets/app-App12345.css',
        'assets/entry.client-Entry123.js',
        'assets/manifest-0a1b2c3d.js',
        'assets/root-Root1234.js',
        'assets/studio-Route123.js',
        'favicon.svg',
        'studio-icon-192.png',
      ].sort(),
    );
  });

  it('finds the namespaces of the strings it carries', () => {
    expect(namespacesOf(pageHtml('en'))).toEqual(['common', 'studio']);
    expect(namespacesOf('<html></html>')).toEqual([]);
  });
});
