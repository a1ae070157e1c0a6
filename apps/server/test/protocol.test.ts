import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from './helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('callable protocol edges', () => {
  it('answers an unknown function with not-found in the protocol shape', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/fn/doesNotExist', payload: { data: {} } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { status: 'NOT_FOUND', message: expect.any(String) } });
  });

  it('answers /api itself and unknown API paths in the protocol shape', async () => {
    for (const url of ['/api', '/api?x=1', '/api/nothing/here']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.status).toBe('NOT_FOUND');
    }
  });

  it('refuses a cross-origin browser call', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/fn/storePreInstallData',
      headers: { origin: 'https://evil.example' },
      payload: { data: {} },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.status).toBe('PERMISSION_DENIED');
  });

  it('refuses a body that is not JSON', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/fn/storePreInstallData',
      headers: { 'content-type': 'text/plain', origin: TEST_PUBLIC_URL },
      payload: 'hello',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.status).toBe('INVALID_ARGUMENT');
  });

  it('sends security headers on API answers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});
