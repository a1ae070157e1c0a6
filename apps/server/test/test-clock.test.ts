import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Database } from '../src/db/client.ts';
import { memoryMailer, testConfig } from './helpers/app.ts';
import { createTestDatabase } from './helpers/database.ts';

// The end-to-end tests' clock (TEST_CLOCK, refused in production): `POST /api/test/clock` moves the
// server's time forward. It accepted any value (a hostile client's report): 1e300 made every later
// date invalid. It now keeps the clock within 2000–2099 and answers anything else 400
// invalid-argument, leaving the clock where it was. Runs on PGlite and PostgreSQL.

const DAY_MS = 24 * 60 * 60 * 1000;

let app: FastifyInstance;
let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  // Without a `now` of the test's own: the app's test clock is the one under test.
  ({ app } = await buildApp({
    config: testConfig({ TEST_CLOCK: 'true' }),
    database,
    mailer: memoryMailer().mailer,
    serveSite: false,
  }));
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
});

async function move(payload: string) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/test/clock',
    headers: { 'content-type': 'application/json' },
    payload,
  });
  return { status: response.statusCode, body: response.json() as { now?: string; error?: { status: string } } };
}

async function serverNow(): Promise<number> {
  const { status, body } = await move('{"advanceMs":0}');
  expect(status).toBe(200);
  return Date.parse(body.now ?? '');
}

describe('POST /api/test/clock', () => {
  it('moves the clock forward by a day', async () => {
    const before = await serverNow();
    const { status, body } = await move(JSON.stringify({ advanceMs: DAY_MS }));
    expect(status).toBe(200);
    expect(Date.parse(body.now ?? '') - before).toBeGreaterThanOrEqual(DAY_MS);
    expect(Date.parse(body.now ?? '') - before).toBeLessThan(DAY_MS + 60_000);
  });

  const yearsAhead = (years: number) => years * 366 * DAY_MS;
  it.each([
    ['1e300 ms (an invalid date)', '{"advanceMs":1e300}'],
    ['beyond 2099', JSON.stringify({ advanceMs: yearsAhead(100) })],
    ['the largest safe integer', JSON.stringify({ advanceMs: Number.MAX_SAFE_INTEGER })],
    ['beyond the safe integers', JSON.stringify({ advanceMs: 2 ** 53 + 2 })],
    ['a negative offset', '{"advanceMs":-1}'],
    ['a fraction', '{"advanceMs":1.5}'],
    ['text', '{"advanceMs":"1000"}'],
    ['null', '{"advanceMs":null}'],
    ['nothing', '{}'],
    ['a body that is not an object', '"advance"'],
  ])('refuses %s with 400 invalid-argument and leaves the clock alone', async (_label, payload) => {
    const before = await serverNow();
    const { status, body } = await move(payload);
    expect(status).toBe(400);
    expect(body.error?.status).toBe('INVALID_ARGUMENT');
    const after = await serverNow();
    expect(after - before).toBeGreaterThanOrEqual(0);
    expect(after - before).toBeLessThan(60_000);
  });
});
