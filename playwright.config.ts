import { defineConfig, devices } from '@playwright/test';

// End-to-end tests in Debian's Chromium against the built product (`npm run build` first).
const PORT = Number(process.env.E2E_PORT ?? 3100);
export const BASE_URL = `http://localhost:${PORT}`;
/** The full-funnel story runs against a server of its own: it moves that server's clock. */
export const FUNNEL_PORT = PORT + 1;
export const FUNNEL_URL = `http://localhost:${FUNNEL_PORT}`;
/** The Authorization value the funnel server expects on RevenueCat webhooks. */
export const FUNNEL_WEBHOOK_AUTH = 'Bearer e2e-revenuecat-webhook-secret';
/** The fraud review's story runs against a server of its own too: it moves the clock and changes a policy. */
export const REVIEW_PORT = PORT + 2;
export const REVIEW_URL = `http://localhost:${REVIEW_PORT}`;
/**
 * The programme v2's whole story too (e2e/programme-story.spec.ts): it moves the clock, changes a
 * group's policy and sends webhooks to a receiver on this machine.
 */
export const STORY_PORT = PORT + 3;
export const STORY_URL = `http://localhost:${STORY_PORT}`;
/** The test servers below: each writes its log to `.e2e-data/<port>/server.log`, scanned after the run. */
export const E2E_SERVER_PORTS = [PORT, FUNNEL_PORT, REVIEW_PORT, STORY_PORT] as const;

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export default defineConfig({
  testDir: './e2e',
  outputDir: `test-results/playwright-${PORT}`,
  fullyParallel: true,
  workers: 2,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: [['list']],
  // The servers' logs hold no personal data and carry request ids (e2e/server-log-check.ts).
  globalTeardown: './e2e/server-log-check.ts',
  timeout: 30_000,
  use: {
    baseURL: BASE_URL,
    locale: 'fr-FR',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
    // A failed test keeps its trace (actions, DOM snapshots, network, console) without the screencast:
    // recording screenshots of every test cost a sixth of the end-to-end run (13.2 → 11.1 minutes).
    trace: { mode: 'retain-on-failure', screenshots: false },
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: /(funnel|review|programme-story)\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], channel: undefined },
    },
    {
      name: 'funnel',
      testMatch: /funnel\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], channel: undefined, baseURL: FUNNEL_URL },
    },
    {
      name: 'review',
      testMatch: /review\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], channel: undefined, baseURL: REVIEW_URL },
    },
    {
      name: 'story',
      testMatch: /programme-story\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], channel: undefined, baseURL: STORY_URL },
    },
  ],
  webServer: [
    testServer(PORT, {
      RATE_LIMIT_CONTACT_PER_HOUR: '100',
      // Every test signs in from 127.0.0.1: the per-IP limits are raised; the per-e-mail limit stays
      // at its default (10 failed attempts per hour) and its test uses an address of its own.
      RATE_LIMIT_SIGNIN_PER_MINUTE: '1000',
      RATE_LIMIT_SIGNUP_PER_HOUR: '1000',
      RATE_LIMIT_PASSWORD_RESET_PER_HOUR: '1000',
      SUPPORT_PHONE: '+33 1 23 45 67 89',
      LIVE_CHAT_URL: 'https://chat.skanova.example/live',
      // The webhooks test's receiver listens on this machine (docs/product/webhooks.md#the-address-guard).
      WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'true',
    }),
    testServer(FUNNEL_PORT, {
      TEST_CLOCK: 'true',
      REVENUECAT_WEBHOOK_AUTH: FUNNEL_WEBHOOK_AUTH,
      JOBS_ENABLED: 'true',
      JOBS_TICK_MS: '500',
    }),
    testServer(REVIEW_PORT, {
      TEST_CLOCK: 'true',
      REVENUECAT_WEBHOOK_AUTH: FUNNEL_WEBHOOK_AUTH,
      JOBS_ENABLED: 'true',
      JOBS_TICK_MS: '500',
    }),
    testServer(STORY_PORT, {
      TEST_CLOCK: 'true',
      REVENUECAT_WEBHOOK_AUTH: FUNNEL_WEBHOOK_AUTH,
      JOBS_ENABLED: 'true',
      JOBS_TICK_MS: '500',
      // The story's receiver listens on this machine (docs/product/webhooks.md#the-address-guard).
      WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'true',
    }),
  ],
});

/**
 * A test server on a fresh seeded database: its port, address and data folder, and the test's own
 * settings. Its log (stdout, pino JSON lines) is copied to `server.log` in its data folder.
 */
function testServer(port: number, extra: Record<string, string>) {
  return {
    command: `rm -rf .e2e-data/${port} && node --import tsx e2e/seed.ts && node --import tsx apps/server/src/main.ts | tee .e2e-data/${port}/server.log`,
    url: `http://localhost:${port}/robots.txt`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: serverEnv(port, extra),
  };
}

/** A test server's environment: its port, address and data folder, and the test's own settings. */
function serverEnv(port: number, extra: Record<string, string>): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://localhost:${port}`,
    DATA_DIR: `.e2e-data/${port}`,
    ...(process.env.WEB_BUILD_DIR ? { WEB_BUILD_DIR: process.env.WEB_BUILD_DIR } : {}),
    // Request lines included: the log check after the run needs them.
    LOG_LEVEL: 'info',
    ...extra,
  };
}
