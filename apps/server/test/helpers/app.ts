import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import type { AppContext } from '../../src/context.ts';
import type { Database } from '../../src/db/client.ts';
import type { Mailer, MailMessage } from '../../src/lib/mailer.ts';
import { createTestDatabase } from './database.ts';

export const TEST_PUBLIC_URL = 'http://localhost:3000';

export interface TestApp {
  app: FastifyInstance;
  /** What handlers and jobs share (call job functions directly with it). */
  context: AppContext;
  database: Database;
  config: Config;
  /** Moves the server's clock (ms). */
  clock: { now: Date; advance(ms: number): void };
  close(): Promise<void>;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: TEST_PUBLIC_URL,
    IP_HASH_SECRET: 'test-secret-test-secret-test-secret-0123',
    AUTH_SECRET: 'test-auth-secret-test-auth-secret-0123456',
    DATA_ENCRYPTION_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    DATA_DIR: './data/test',
    ...overrides,
  });
}

/** The API on a fresh database, without the prerendered site. Pass a mailer to capture e-mail. */
export async function createTestApp(
  options: { env?: Record<string, string>; mailer?: Mailer; serveSite?: boolean } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const t = await serveTestApp(database, testConfig(options.env), {
    // With SMTP_URL and no mailer, the real nodemailer transport is used (tests with an SMTP capture).
    mailer: options.mailer ?? (options.env?.SMTP_URL ? undefined : memoryMailer().mailer),
    serveSite: options.serveSite,
  });
  return {
    ...t,
    async close() {
      await t.close();
      await database.close();
    },
  };
}

/**
 * The API on a database the test holds (it outlives the app: several apps in turn, as after restarts),
 * with a clock the test moves. `mailer` undefined: the real transport. Closing it closes the app only.
 */
export async function serveTestApp(
  database: Database,
  config: Config,
  options: { mailer?: Mailer; serveSite?: boolean; logger?: FastifyServerOptions['logger'] } = {},
): Promise<TestApp> {
  const clock = {
    now: new Date(),
    advance(ms: number) {
      clock.now = new Date(clock.now.getTime() + ms);
    },
  };
  const { app, context } = await buildApp({
    config,
    database,
    mailer: options.mailer,
    now: () => clock.now,
    serveSite: options.serveSite ?? false,
    logger: options.logger,
  });
  await app.ready();
  return { app, context, database, config, clock, close: () => app.close() };
}

/** A mailer that keeps messages in memory (for tests that do not exercise SMTP itself). */
export function memoryMailer(): { mailer: Mailer; sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    sent,
    mailer: {
      async send(message) {
        sent.push(message);
      },
      close() {},
    },
  };
}
