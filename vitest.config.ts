import { defineConfig } from 'vitest/config';

// Server integration tests run twice: on the embedded PGlite and on a real PostgreSQL that the
// global setup starts as an unprivileged user in a temporary folder.
const serverTests = ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'];

export default defineConfig({
  test: {
    projects: [
      {
        test: { name: 'shared', environment: 'node', include: ['packages/shared/src/**/*.test.ts'] },
      },
      {
        // The on-device skin analysis: pixel maths, zones, gates, and the face model under Node.
        test: {
          name: 'skin',
          environment: 'node',
          include: ['packages/skin/src/**/*.test.ts', 'packages/skin/test/**/*.test.ts'],
          testTimeout: 60_000,
        },
      },
      {
        // The project's own ESLint rules (tools/eslint).
        test: { name: 'tools', environment: 'node', include: ['tools/**/*.test.ts'] },
      },
      {
        test: {
          name: 'server-pglite',
          environment: 'node',
          include: serverTests,
          env: { TEST_DB: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server-postgres',
          environment: 'node',
          include: serverTests,
          env: { TEST_DB: 'postgres' },
          globalSetup: ['apps/server/test/postgres-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'web',
          environment: 'jsdom',
          // scripts/: the build's own steps (their tests choose the node environment).
          include: ['apps/web/app/**/*.test.{ts,tsx}', 'apps/web/scripts/**/*.test.ts'],
        },
      },
    ],
  },
});
