import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Server integration tests run twice: on the embedded PGlite and on a real PostgreSQL that the
// global setup starts as an unprivileged user in a temporary folder.
const serverTests = ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'];

// The server test files of one worker share their loaded modules instead of importing the whole
// server again for each file (3.7 minutes of imports in all, a third of the run). Each file builds
// its own app and database. What the server keeps in a module is keyed by app or database (session
// settings, visit writers, outbox sends), held only while a job runs (job locks, released in a
// finally), or the same for every app (user-agent verdicts, a pool of random bytes); no server test
// mocks a module. Vitest: 6.4 → 4.5 minutes.
const ISOLATE_SERVER_FILES = false;

// The erasure test searches every byte of the PostgreSQL cluster's files for a deleted person. With
// other test files busy in the same cluster, the day's maintenance sometimes left the person in a
// table's file or in the planner's statistics (3 runs in 5 with four other files; never alone, 4 of
// 4): it runs on a cluster of its own, after every other file (docs/decisions/017-erasure-in-the-files.md).
const ALONE_ON_POSTGRES = ['apps/server/test/erasure.test.ts'];

export default defineConfig({
  test: {
    // One worker more than the cores: the server tests spend part of their time waiting on their
    // databases and child processes (Vitest's default, one less than the cores, ran them one by one on
    // two cores: 12 minutes against 9 with three workers). At most 8: each PostgreSQL test file's pool
    // may open 20 connections, and the test cluster allows 200 (postgres-cluster.ts).
    maxWorkers: Math.min(8, availableParallelism() + 1),
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
        // The repository's own checks: ESLint rules (tools/eslint), feature names (tools/architecture),
        // documents, deployment files, the toolchain.
        test: { name: 'tools', environment: 'node', include: ['tools/**/*.test.ts'] },
      },
      {
        test: {
          name: 'server-pglite',
          environment: 'node',
          include: serverTests,
          env: { TEST_DB: 'pglite' },
          globalSetup: ['apps/server/test/pglite-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          isolate: ISOLATE_SERVER_FILES,
        },
      },
      {
        test: {
          name: 'server-postgres',
          environment: 'node',
          include: serverTests,
          exclude: ALONE_ON_POSTGRES,
          env: { TEST_DB: 'postgres' },
          globalSetup: ['apps/server/test/postgres-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          isolate: ISOLATE_SERVER_FILES,
        },
      },
      {
        test: {
          name: 'server-postgres-alone',
          environment: 'node',
          include: ALONE_ON_POSTGRES,
          env: { TEST_DB: 'postgres' },
          globalSetup: ['apps/server/test/postgres-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 1 },
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
