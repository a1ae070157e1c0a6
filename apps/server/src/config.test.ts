import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('works with no settings at all (the quick start)', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.BRAND_NAME).toBe('Skanova');
    expect(config.isHttps).toBe(false);
  });

  it('derives the public origin and HTTPS from PUBLIC_URL', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://www.skanova.com/' });
    expect(config.publicUrl).toBe('https://www.skanova.com');
    expect(config.publicOrigin).toBe('https://www.skanova.com');
    expect(config.isHttps).toBe(true);
  });

  it("opens the site's own web app unless WEB_APP_URL names another", () => {
    expect(loadConfig({}).WEB_APP_URL).toBe('http://localhost:3000/studio');
    expect(loadConfig({ PUBLIC_URL: 'https://www.skanova.com/', WEB_APP_URL: '' }).WEB_APP_URL).toBe(
      'https://www.skanova.com/studio',
    );
    expect(loadConfig({ WEB_APP_URL: 'https://app.example.com' }).WEB_APP_URL).toBe('https://app.example.com');
  });

  it('treats an empty DATABASE_URL as unset and accepts a PostgreSQL URL', () => {
    expect(loadConfig({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
    const secret = 'x'.repeat(32);
    expect(
      loadConfig({
        DATABASE_URL: 'postgres://u@h/db',
        IP_HASH_SECRET: secret,
        AUTH_SECRET: secret,
        DATA_ENCRYPTION_KEY: 'a'.repeat(64),
      }).DATABASE_URL,
    ).toBe('postgres://u@h/db');
  });

  it('requires the shared secrets with PostgreSQL (several processes must agree on them)', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h/db' })).toThrow(
      /IP_HASH_SECRET: is required when DATABASE_URL is set/,
    );
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h/db' })).toThrow(
      /AUTH_SECRET: is required when DATABASE_URL is set/,
    );
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h/db' })).toThrow(
      /DATA_ENCRYPTION_KEY: is required when DATABASE_URL is set/,
    );
  });

  it('runs one process unless WORKERS says more, which needs PostgreSQL (the embedded database belongs to one process)', () => {
    expect(loadConfig({}).WORKERS).toBe(1);
    expect(loadConfig({}).SHUTDOWN_GRACE_MS).toBe(25_000);
    expect(loadConfig({}).SHUTDOWN_DELAY_MS).toBe(0);
    expect(() => loadConfig({ SHUTDOWN_DELAY_MS: '30000' })).toThrow(
      /SHUTDOWN_DELAY_MS: must be less than SHUTDOWN_GRACE_MS/,
    );
    expect(() => loadConfig({ WORKERS: '3' })).toThrow(/WORKERS: above 1 needs PostgreSQL \(DATABASE_URL\)/);
    expect(() => loadConfig({ WORKERS: '0' })).toThrow(/WORKERS/);
    const secret = 'x'.repeat(32);
    const postgres = {
      DATABASE_URL: 'postgres://u@h/db',
      IP_HASH_SECRET: secret,
      AUTH_SECRET: secret,
      DATA_ENCRYPTION_KEY: 'a'.repeat(64),
    };
    expect(loadConfig({ ...postgres, WORKERS: '3', SHUTDOWN_GRACE_MS: '10000' })).toMatchObject({
      WORKERS: 3,
      SHUTDOWN_GRACE_MS: 10_000,
    });
  });

  it('names every bad value in one clear message', () => {
    const attempt = () =>
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', APP_URL_SCHEME: 'skanova', SUPPORT_EMAIL: 'nope' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('PORT');
      expect(message).toContain('DATABASE_URL');
      expect(message).toContain('APP_URL_SCHEME');
      expect(message).toContain('SUPPORT_EMAIL');
      expect(message).toContain('.env.example');
    }
  });

  it('keeps optional contact items unset when empty', () => {
    const config = loadConfig({ SUPPORT_PHONE: '', LIVE_CHAT_URL: '' });
    expect(config.SUPPORT_PHONE || null).toBeNull();
    expect(config.LIVE_CHAT_URL).toBeUndefined();
  });
});
