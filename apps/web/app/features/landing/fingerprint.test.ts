import { describe, expect, it } from 'vitest';
import { fingerprintSchema, preInstallRequestSchema } from '@skanova/shared/landing/schemas';
import {
  type VisitEnvironment,
  browserEnvironment,
  buildFingerprint,
  buildPreInstallRequest,
  queryObject,
  visitorSessionId,
} from './fingerprint';

const NOW = new Date('2026-11-22T10:15:30.000Z');

function environment(overrides: Partial<VisitEnvironment> = {}): VisitEnvironment {
  return {
    navigator: {
      userAgent: 'Mozilla/5.0 (Linux; Android 14)',
      language: 'fr-FR',
      hardwareConcurrency: 8,
      deviceMemory: 4,
    },
    screen: { width: 412, height: 915, colorDepth: 24 },
    referrer: 'https://www.instagram.com/',
    timeZone: 'Europe/Paris',
    ...overrides,
  };
}

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> {
  const values = new Map<string, string>();
  return { getItem: (key) => values.get(key) ?? null, setItem: (key, value) => void values.set(key, value) };
}

describe('buildPreInstallRequest', () => {
  it('builds the fingerprint and deep-link payload of the spec, accepted by the server schema', () => {
    const request = buildPreInstallRequest({
      env: environment(),
      platform: 'android',
      sessionId: '0f6b1c2e-5d1a-4c47-9a57-2f5b8e8c9d10',
      now: NOW,
      target: { type: 'ref', code: 'ABC123' },
      originalPath: '/ref/ABC123',
      search: '?type=ref&ref=ABC123',
    });
    expect(request).toEqual({
      fingerprint: {
        userAgent: 'Mozilla/5.0 (Linux; Android 14)',
        language: 'fr-FR',
        timezone: 'Europe/Paris',
        screenResolution: '412x915',
        platform: 'android',
        colorDepth: 24,
        deviceMemory: 4,
        hardwareConcurrency: 8,
        sessionId: '0f6b1c2e-5d1a-4c47-9a57-2f5b8e8c9d10',
        timestamp: '2026-11-22T10:15:30.000Z',
        referrer: 'https://www.instagram.com/',
      },
      deeplink: { type: 'ref', code: 'ABC123', fullPath: '/ref/ABC123' },
      path: '/ref/ABC123',
      query: { type: 'ref', ref: 'ABC123' },
    });
    expect(preInstallRequestSchema.safeParse(request).success).toBe(true);
  });

  it('says direct without a referrer and null for what the browser does not tell', () => {
    const request = buildPreInstallRequest({
      env: environment({
        referrer: '',
        timeZone: undefined,
        navigator: { userAgent: 'Safari', language: 'en-GB', hardwareConcurrency: undefined as unknown as number },
        screen: { width: 390, height: 844, colorDepth: 24 },
      }),
      platform: 'ios',
      sessionId: '0f6b1c2e5d1a4c479a572f5b8e8c9d10',
      now: NOW,
      target: { type: 'download', code: null },
      originalPath: '/download?utm_source=mail',
      search: '?utm_source=mail',
    });
    expect(request.fingerprint).toMatchObject({
      referrer: 'direct',
      deviceMemory: null,
      hardwareConcurrency: null,
      timezone: '',
    });
    expect(request.deeplink).toEqual({ type: 'download', code: null, fullPath: '/download?utm_source=mail' });
    expect(request.path).toBe('/download');
    expect(preInstallRequestSchema.safeParse(request).success).toBe(true);
  });

  it('clips oversized values to the schema bounds instead of losing the visit', () => {
    const long = 'x'.repeat(5000);
    const search = `?${Array.from({ length: 40 }, (_, i) => `k${i}${'k'.repeat(80)}=${long}`).join('&')}`;
    const request = buildPreInstallRequest({
      env: environment({
        referrer: `https://example.com/${long}`,
        navigator: { userAgent: long, language: long, hardwareConcurrency: 4 },
      }),
      platform: 'desktop',
      sessionId: '0f6b1c2e5d1a4c479a572f5b8e8c9d10',
      now: NOW,
      target: { type: 'ref', code: 'C'.repeat(100) },
      originalPath: `/ref/${long}`,
      search,
    });
    expect(Object.keys(request.query)).toHaveLength(32);
    expect(preInstallRequestSchema.safeParse(request).success).toBe(true);
  });

  it('drops NUL characters, which the server refuses', () => {
    const request = buildPreInstallRequest({
      env: environment({ referrer: 'https://example.com/\u0000x' }),
      platform: 'desktop',
      sessionId: '0f6b1c2e5d1a4c479a572f5b8e8c9d10',
      now: NOW,
      target: { type: 'ref', code: 'AB\u0000C' },
      originalPath: '/ref/AB%00C',
      search: '?ref=AB%00C&x%00=1',
    });
    expect(request.query).toEqual({ ref: 'ABC', x: '1' });
    expect(request.deeplink.code).toBe('ABC');
    expect(preInstallRequestSchema.safeParse(request).success).toBe(true);
  });

  it('reads the browser environment', () => {
    const env = browserEnvironment();
    expect(env.navigator.userAgent).toContain('jsdom');
    const request = buildPreInstallRequest({
      env,
      platform: 'desktop',
      sessionId: visitorSessionId(window.sessionStorage),
      now: new Date(),
      target: { type: 'download', code: null },
      originalPath: '/download',
      search: '',
    });
    expect(preInstallRequestSchema.safeParse(request).success).toBe(true);
  });
});

describe('queryObject', () => {
  it('keeps the first value of a repeated parameter', () => {
    expect(queryObject('?ref=A&ref=B&lang=en')).toEqual({ ref: 'A', lang: 'en' });
    expect(queryObject('')).toEqual({});
  });
});

describe('visitorSessionId', () => {
  it('generates an id once and keeps it for the session', () => {
    const storage = memoryStorage();
    const first = visitorSessionId(storage);
    expect(first).toMatch(/^[A-Za-z0-9-]{16,64}$/);
    expect(visitorSessionId(storage)).toBe(first);
  });

  it('replaces a malformed stored id and works without storage', () => {
    const storage = memoryStorage();
    storage.setItem('sk_sid', '<script>');
    expect(visitorSessionId(storage)).not.toBe('<script>');
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(visitorSessionId(refusing)).toMatch(/^[A-Za-z0-9-]{16,64}$/);
    expect(visitorSessionId(null)).toMatch(/^[A-Za-z0-9-]{16,64}$/);
  });
});

describe('fingerprint without consent', () => {
  it('keeps only what attribution needs', () => {
    const env = {
      navigator: { userAgent: 'UA', language: 'fr-FR', hardwareConcurrency: 8, deviceMemory: 4 },
      screen: { width: 390, height: 844, colorDepth: 24 },
      referrer: '',
      timeZone: 'Europe/Paris',
    };
    const fingerprint = buildFingerprint(env, 'ios', 'session-1', new Date('2026-01-01T00:00:00Z'), false);
    expect(fingerprint).toMatchObject({ userAgent: 'UA', platform: 'ios', sessionId: 'session-1', referrer: 'direct' });
    expect(fingerprint).toMatchObject({
      language: '',
      timezone: '',
      screenResolution: '',
      colorDepth: null,
      deviceMemory: null,
      hardwareConcurrency: null,
    });
    expect(fingerprintSchema.safeParse(fingerprint).success).toBe(true);
  });
});
