import type { Manifest as ViteManifest } from 'vite';
import { LANGUAGES, type Language } from '@skanova/shared/site/constants';
import { STUDIO_PAGES } from '@skanova/shared/studio/constants';
import {
  STUDIO_ICONS,
  STUDIO_REVISION_TOKEN,
  STUDIO_WORKER_DIR,
  studioManifestUrl,
  studioPageInLanguage,
} from '@skanova/shared/studio/offline';

// What the web app's service worker keeps (ADR 011): exactly what the app's pages load, found the way
// the browser finds it — the pages' HTML, then the bundler's module graph from the scripts and styles
// it names — plus the analysis worker, the models it fetches and the install icons. The public site's
// code is never in it: a page of the site's own, or its strings, is not reachable from the app.

/** Above this, the build fails: a visitor's first visit downloads all of it (about 8.6 MB today). */
export const STUDIO_PRECACHE_BUDGET_BYTES = 12 * 1024 * 1024;

export type { ViteManifest };

export interface AppPageHtml {
  path: string;
  lang: Language;
  html: string;
}

export interface ClientBuild {
  /** Every file the server serves from the client folder (path from the folder, `/`-separated → bytes); no HTML, no compressed copy. */
  files: ReadonlyMap<string, number>;
  manifest: ViteManifest;
  /** The app's prerendered pages in every language. */
  pages: readonly AppPageHtml[];
  readText(file: string): string;
  /** A digest of a file's content: the revision of files whose name does not carry one. */
  digest(file: string): string;
}

export interface PrecacheEntry {
  url: string;
  /** null when the address changes with the content (hashed names, the models' digest folder). */
  revision: string | null;
  bytes: number;
}

/** A string module of the translations (`…/i18n/<lang>/<namespace>.json`). */
const STRINGS_MODULE = /\/i18n\/[a-z]{2}\/([\w-]+)\.json$/;
/** Where the models and the WebAssembly runtime are, as the app's code names their folder. */
const MODELS_FOLDER = /\/(assets\/studio-models\/[\w-]+\/)/g;
/** Vite names what it emits `<name>-<hash>.<ext>` under these folders; the models' folder is a digest. */
const CONTENT_ADDRESSED = /^(assets|studio-assets)\//;

/** Files of the build that a page's HTML names by absolute address (scripts, styles, preloads, icons). */
export function filesNamedBy(html: string, files: ReadonlyMap<string, number>): string[] {
  const named = new Set<string>();
  for (const match of html.matchAll(/["'(]\/([\w./-]+\.[a-z0-9]+)(?=[#?"')])/gi)) {
    if (files.has(match[1]!)) named.add(match[1]!);
  }
  return [...named];
}

/** The translation namespaces a prerendered page carries (its `sk-i18n` block): the ones it uses. */
export function namespacesOf(html: string): string[] {
  const json = /<script id="sk-i18n" type="application\/json">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (!json) return [];
  const data = JSON.parse(json) as { resources?: Record<string, unknown> };
  return Object.keys(data.resources ?? {});
}

/**
 * The files the app's pages need: from the chunks their HTML names, every import, stylesheet, asset
 * and dynamic import — except the strings of namespaces the app does not use (the site's shell holds
 * the loaders of every namespace in both languages; the app loads its own, in the other language too
 * when the visitor switches).
 */
export function appModuleFiles(manifest: ViteManifest, entryFiles: readonly string[], namespaces: ReadonlySet<string>) {
  const byFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
  const files = new Set<string>(entryFiles);
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The build manifest has no entry ${key}.`);
    files.add(chunk.file);
    for (const file of [...(chunk.css ?? []), ...(chunk.assets ?? [])]) files.add(file);
    for (const imported of chunk.imports ?? []) visit(imported);
    for (const imported of chunk.dynamicImports ?? []) {
      const namespace = STRINGS_MODULE.exec(imported)?.[1];
      if (namespace === undefined || namespaces.has(namespace)) visit(imported);
    }
  };
  for (const file of entryFiles) {
    const key = byFile.get(file);
    if (key !== undefined) visit(key);
  }
  return files;
}

/** The precache list of the app's service worker. Throws when the app would not work offline with it. */
export function studioPrecache(build: ClientBuild): PrecacheEntry[] {
  const named = new Set<string>();
  const namespaces = new Set<string>();
  for (const page of build.pages) {
    for (const file of filesNamedBy(page.html, build.files)) named.add(file);
    for (const namespace of namespacesOf(page.html)) namespaces.add(namespace);
  }
  const files = appModuleFiles(build.manifest, [...named], namespaces);

  // The analysis worker (and any chunk of its own): the folder holds nothing else.
  const workerDir = STUDIO_WORKER_DIR.slice(1);
  for (const file of build.files.keys()) if (file.startsWith(workerDir)) files.add(file);
  if (![...files].some((file) => file.startsWith(`${workerDir}analysis.worker-`)))
    throw new Error(
      `The analysis worker is not in ${STUDIO_WORKER_DIR}: the service worker would not control it, and its models would need the network.`,
    );

  // The models and the runtime: the folder the app's code names (the worker fetches its files by name).
  const modelFolders = new Set<string>();
  for (const file of files) {
    if (!file.endsWith('.js')) continue;
    for (const match of build.readText(file).matchAll(MODELS_FOLDER)) modelFolders.add(match[1]!);
  }
  if (modelFolders.size !== 1)
    throw new Error(`The app names ${modelFolders.size} model folders; the service worker expects one.`);
  const [modelFolder] = modelFolders;
  const models = [...build.files.keys()].filter((file) => file.startsWith(modelFolder!));
  if (!models.some((file) => file.endsWith('.bin')) || !models.some((file) => file.endsWith('.wasm')))
    throw new Error(`The models folder ${modelFolder} lacks the models or the WebAssembly runtime.`);
  for (const file of models) files.add(file);

  for (const icon of STUDIO_ICONS) {
    const file = icon.path.slice(1);
    if (!build.files.has(file)) throw new Error(`The install icon ${icon.path} is missing from the build.`);
    files.add(file);
  }

  const entries: PrecacheEntry[] = [...files].sort().map((file) => {
    const bytes = build.files.get(file);
    if (bytes === undefined) throw new Error(`The app needs ${file}, which the build lacks.`);
    return { url: `/${file}`, revision: CONTENT_ADDRESSED.test(file) ? null : build.digest(file), bytes };
  });

  // The pages and the manifest in each language: the server makes them (configuration, year), so their
  // revision is the one it writes into the worker's script.
  for (const lang of LANGUAGES) {
    for (const pagePath of STUDIO_PAGES) {
      const page = build.pages.find((candidate) => candidate.path === pagePath && candidate.lang === lang);
      if (!page) throw new Error(`The app's page ${pagePath} is missing in ${lang}.`);
      entries.push({
        url: studioPageInLanguage(pagePath, lang),
        revision: STUDIO_REVISION_TOKEN,
        bytes: page.html.length,
      });
    }
    entries.push({ url: studioManifestUrl(lang), revision: STUDIO_REVISION_TOKEN, bytes: 0 });
  }

  const total = entries.reduce((sum, entry) => sum + entry.bytes, 0);
  if (total > STUDIO_PRECACHE_BUDGET_BYTES)
    throw new Error(`The app's offline copy weighs ${total} bytes, over its ${STUDIO_PRECACHE_BUDGET_BYTES}.`);
  return entries;
}
