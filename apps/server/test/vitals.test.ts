import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.ts';

// POST /api/vitals: the consented web-vitals beacon (docs/product/calls-and-data.md#other-endpoints). Runs on PGlite and PostgreSQL.

let t: TestApp;
let nextIp = 1;
/** Each test posts from its own address so the per-IP rate limit of one test never trips another. */
let ip = '';

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  ip = `198.51.100.${nextIp++}`;
  await t.database.sql.exec('DELETE FROM web_vitals');
});

function postVitals(payload: unknown, contentType = 'application/json') {
  return t.app.inject({
    method: 'POST',
    url: '/api/vitals',
    headers: { 'content-type': contentType },
    remoteAddress: ip,
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
}

async function storedRows() {
  const { rows } = await t.database.sql.query<{ page: string; name: string; value: number; rating: string | null }>(
    'SELECT page, name, value, rating FROM web_vitals ORDER BY id',
  );
  return rows.map((row) => ({ ...row, value: Number(row.value) }));
}

describe('POST /api/vitals', () => {
  it('stores a single metric and answers 204 without setting cookies', async () => {
    const response = await postVitals({ page: '/support', name: 'LCP', value: 1234.5, rating: 'good' });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(await storedRows()).toEqual([{ page: '/support', name: 'LCP', value: 1234.5, rating: 'good' }]);
  });

  it('stores a batch', async () => {
    const batch = [
      { page: '/', name: 'FCP', value: 800, rating: 'good' },
      { page: '/', name: 'TTFB', value: 120 },
      { page: '/', name: 'CLS', value: 0.02, rating: 'good' },
      { page: '/', name: 'INP', value: 350, rating: 'needs-improvement' },
    ];
    const response = await postVitals(batch);
    expect(response.statusCode).toBe(204);
    expect(await storedRows()).toEqual([
      { page: '/', name: 'FCP', value: 800, rating: 'good' },
      { page: '/', name: 'TTFB', value: 120, rating: null },
      { page: '/', name: 'CLS', value: 0.02, rating: 'good' },
      { page: '/', name: 'INP', value: 350, rating: 'needs-improvement' },
    ]);
  });

  it('accepts the text/plain body of a plain sendBeacon', async () => {
    const response = await postVitals(
      JSON.stringify({ page: '/terms', name: 'CLS', value: 0.1 }),
      'text/plain;charset=UTF-8',
    );
    expect(response.statusCode).toBe(204);
    expect(await storedRows()).toHaveLength(1);
  });

  it('keeps the path only, never the query', async () => {
    const response = await postVitals({ page: '/download?ref=ABCD2345', name: 'LCP', value: 900 });
    expect(response.statusCode).toBe(204);
    expect((await storedRows())[0]?.page).toBe('/download');
  });

  const invalid: [string, unknown][] = [
    ['an unknown metric', { page: '/', name: 'FID', value: 10 }],
    ['a negative value', { page: '/', name: 'LCP', value: -1 }],
    ['a value above ten minutes', { page: '/', name: 'LCP', value: 600_001 }],
    ['a value that is not a number', { page: '/', name: 'LCP', value: '12' }],
    ['a page that is not a path', { page: 'https://evil.example/', name: 'LCP', value: 1 }],
    ['a page path that is too long', { page: `/${'a'.repeat(200)}`, name: 'LCP', value: 1 }],
    ['an unknown rating', { page: '/', name: 'LCP', value: 1, rating: 'great' }],
    ['a missing field', { page: '/', value: 1 }],
    ['an empty batch', []],
    ['a batch of more than 10', Array.from({ length: 11 }, () => ({ page: '/', name: 'LCP', value: 1 }))],
    [
      'a batch with one bad metric',
      [
        { page: '/', name: 'LCP', value: 1 },
        { page: '/', name: 'XXX', value: 1 },
      ],
    ],
    ['null', null],
    ['a string', 'hello'],
  ];
  for (const [label, payload] of invalid) {
    it(`refuses ${label} with 400 INVALID_ARGUMENT and stores nothing`, async () => {
      const response = await postVitals(JSON.stringify(payload));
      expect(response.statusCode).toBe(400);
      expect(response.json().error.status).toBe('INVALID_ARGUMENT');
      expect(await storedRows()).toEqual([]);
    });
  }

  it('refuses malformed JSON (both content types) with 400 INVALID_ARGUMENT', async () => {
    for (const type of ['application/json', 'text/plain']) {
      const response = await postVitals('{"page": "/", "name": ', type);
      expect(response.statusCode, type).toBe(400);
      expect(response.json().error.status, type).toBe('INVALID_ARGUMENT');
    }
  });

  it('refuses an oversized body (over 8 KB) with 400, for both content types', async () => {
    const big = JSON.stringify({ page: '/', name: 'LCP', value: 1, padding: 'x'.repeat(9 * 1024) });
    for (const type of ['application/json', 'text/plain']) {
      const response = await postVitals(big, type);
      expect(response.statusCode, type).toBe(400);
      expect(response.json().error.status, type).toBe('INVALID_ARGUMENT');
    }
    expect(await storedRows()).toEqual([]);
  });

  it('rate-limits one address to 60 requests a minute with 429 RESOURCE_EXHAUSTED', async () => {
    const metric = { page: '/', name: 'TTFB', value: 50 };
    for (let i = 0; i < 60; i++) expect((await postVitals(metric)).statusCode).toBe(204);
    const limited = await postVitals(metric);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.status).toBe('RESOURCE_EXHAUSTED');
    expect(await storedRows()).toHaveLength(60);
    // Another visitor is not affected.
    ip = '203.0.113.7';
    expect((await postVitals(metric)).statusCode).toBe(204);
  });

  it('answers only POST', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/vitals', remoteAddress: ip });
    expect(response.statusCode).toBe(404);
  });
});
