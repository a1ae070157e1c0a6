// @ts-check
// The project's rules, enforced by `npm run lint` inside `npm test` (ADR 008):
// shared ← server, shared ← web; inside each app, plumbing ← features ← entry points; no feature
// imports another feature; no import cycles anywhere, type-only imports included.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import importTypePaths from './tools/eslint/no-restricted-import-type-paths.js';
import typeCycles from './tools/eslint/no-type-cycle.js';
import tseslint from 'typescript-eslint';

/** The feature folders of an app, read from the disk so that a new feature is covered the day it is created. */
function features(folder) {
  return readdirSync(new URL(folder, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

/** One zone per feature: a feature may import its own files, never another feature's. */
function featureIsolation(folder) {
  return features(folder).map((feature) => ({
    target: `./${folder}/${feature}`,
    from: `./${folder}`,
    except: [`./${feature}`],
    message: 'A feature never imports another feature: move what both need to shared code (ADR 001, ADR 008).',
  }));
}

const SERVER = 'apps/server/src';
const SERVER_FEATURES = `${SERVER}/features`;
/** Shared by every feature: database code, technical helpers, e-mail, webhooks, business rules (ADR 008, ADR 025). */
const SERVER_PLUMBING = ['db', 'lib', 'email', 'webhooks', 'domain', 'services.ts'];
/** What starts the server or answers a request: never imported by features or jobs. */
const SERVER_ENTRY_POINTS = ['functions', 'http', 'app.ts', 'main.ts', 'process', 'cli', 'demo'];
const SERVER_ABOVE_PLUMBING = ['features', 'jobs', ...SERVER_ENTRY_POINTS];
/**
 * Every other file at the root of the server's src/ (config.ts, and any file added there) is plumbing:
 * a file outside the layer folders would otherwise import anything and be imported by anything, and
 * carry a feature to the plumbing or to another feature (ADR 020). A glob, so that a file created
 * after the linter started, or linted before it is saved, is covered too.
 */
const SERVER_ROOT_PLUMBING = `./${SERVER}/!(app|main|context).{ts,tsx,js,mts,cts}`;
const WEB = 'apps/web/app';
const WEB_FEATURES = `${WEB}/features`;
/**
 * The web app's entry points: the framework loads them, and they compose everything else. Nothing
 * imports them, so that what they import (the consent banner, the vitals reporter, every route) never
 * reaches a component, a feature or another route through them (ADR 020).
 */
const WEB_ENTRY_POINTS = ['root.tsx', 'routes.ts', 'entry.client.tsx', 'entry.server.tsx'].map(
  (file) => `./${WEB}/${file}`,
);

const layers = [
  {
    target: './packages/shared',
    from: ['./apps', './e2e', './bench'],
    message: 'packages/shared depends on nothing of the apps (ADR 001).',
  },
  {
    target: './packages/shared',
    from: './packages/skin',
    except: ['./src/contract.ts', './src/trend.ts'],
    message: "packages/shared reads the skin analysis's contract and trend rules, never the analysis itself (ADR 022).",
  },
  {
    target: './packages/skin',
    from: ['./apps', './e2e', './bench', './packages/shared'],
    message: 'packages/skin is the on-device analysis alone: it depends on nothing of the apps.',
  },
  {
    target: './apps/server',
    from: './packages/skin',
    message: 'The server never runs the skin analysis (the photo never leaves the device).',
  },
  { target: './apps/server', from: './apps/web', message: 'The server never imports the web app.' },
  { target: './apps/web', from: './apps/server', message: 'The web app never imports the server.' },
  // Server (ADR 008): plumbing (db, lib, email, domain, services.ts) ← features ← jobs ← entry points
  // (functions, http, app.ts, main.ts, cli, demo).
  {
    target: SERVER_PLUMBING.map((folder) => `./${SERVER}/${folder}`),
    from: [...SERVER_ABOVE_PLUMBING.map((folder) => `./${SERVER}/${folder}`), `./${SERVER}/context.ts`],
    message:
      'Plumbing (db, lib, email, webhooks, domain) never imports features, jobs or entry points, nor context.ts (it holds the auth feature): name the services you need from services.ts.',
  },
  {
    target: SERVER_ROOT_PLUMBING,
    from: [...SERVER_ABOVE_PLUMBING.map((folder) => `./${SERVER}/${folder}`), `./${SERVER}/context.ts`],
    message:
      'A file at the root of apps/server/src (other than app.ts, main.ts and context.ts) is plumbing: it never imports features, jobs or entry points. Put code that composes features in a feature, a job or an entry point (ADR 008, ADR 020).',
  },
  {
    target: `./${SERVER_FEATURES}`,
    from: SERVER_ENTRY_POINTS.concat('jobs').map((folder) => `./${SERVER}/${folder}`),
    message: 'Features never import jobs, the callables or the HTTP layer: those compose features, not the reverse.',
  },
  {
    target: `./${SERVER}/jobs`,
    from: SERVER_ENTRY_POINTS.map((folder) => `./${SERVER}/${folder}`),
    message: 'Jobs compose features; the callables, the HTTP layer and the app call jobs, never the reverse.',
  },
  ...featureIsolation(SERVER_FEATURES),
  // Web: lib, components ← features ← routes ← entry points (root.tsx, routes.ts, entry.*).
  {
    target: [`./${WEB}/lib`, `./${WEB}/components`],
    from: [`./${WEB}/features`, `./${WEB}/routes`],
    message: 'lib and components are shared by features: they never import a feature or a route.',
  },
  { target: `./${WEB_FEATURES}`, from: `./${WEB}/routes`, message: 'Features never import routes.' },
  {
    target: `./${WEB}`,
    from: WEB_ENTRY_POINTS,
    message:
      'Nothing imports the entry points (root.tsx, routes.ts, entry.*): they compose the app. Move what you need from one to lib/ or components/ (ADR 020).',
  },
  ...featureIsolation(WEB_FEATURES),
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      'apps/web/build/**',
      'apps/web/build-*/**',
      'apps/web/.react-router/**',
      'data/**',
      '.e2e-data/**',
      'test-results/**',
      'playwright-report/**',
      'bench/results/**',
      // Modules with import cycles on purpose: the type-cycle rule's test reads them.
      'tools/eslint/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node, ...globals.browser },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'import-x': importX, local: { rules: { ...typeCycles.rules, ...importTypePaths.rules } } },
    settings: {
      // Without these, import-x reads only .js files for the rules that follow imports (no-cycle passed
      // over every TypeScript module).
      'import-x/extensions': ['.ts', '.tsx', '.cts', '.mts', '.js', '.jsx', '.cjs', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.cts', '.mts'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          noWarnOnMultipleProjects: true,
          project: [
            'tsconfig.json',
            'apps/server/tsconfig.json',
            'apps/web/tsconfig.json',
            'packages/shared/tsconfig.json',
            'packages/skin/tsconfig.json',
          ],
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // import-x/no-cycle skips type-only imports; this one reports the cycles they close (ADR 008).
      'local/no-type-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { zones: layers }],
      // The same zones for `typeof import('…')`, which import-x does not read (ADR 020).
      'local/no-restricted-import-type-paths': ['error', { zones: layers }],
      'import-x/no-self-import': 'error',
      'import-x/no-duplicates': 'error',
      // No barrel files (ADR 021): nothing re-exports a whole module.
      'import-x/avoid-re-export-all': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        // `typeof import('…')` names a lazily loaded module's type without loading it.
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'off',
    },
  },
  {
    // packages/shared depends on what its package.json lists (zod, the skin package) and nothing else: no
    // React, no server library, no database (ADR 001, ADR 022). Its tests may use the repository's tools.
    files: ['packages/shared/**/*.ts'],
    rules: {
      'import-x/no-extraneous-dependencies': [
        'error',
        { packageDir: ['packages/shared', '.'], devDependencies: ['**/*.test.ts'] },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // Tests read loosely typed answers (JSON bodies, reports, translation files) on purpose.
    files: ['**/*.test.{ts,tsx}', 'apps/server/test/**', 'e2e/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  prettier,
);
