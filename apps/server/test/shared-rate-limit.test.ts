import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { createHasher } from '../src/lib/secrets.ts';
import { sharedRateLimitStore } from '../src/lib/shared-rate-limit.ts';
import { TEST_DB, createTestDatabase } from './helpers/database.ts';

// The rate limits of the HTTP routes counted in the database (PostgreSQL's store; the statement runs
// on both databases): hits of one client on one route add up across stores sharing the database —
// as they do across server processes — in fixed windows, under a hashed client key.

const MINUTE = 60_000;

describe(`rate limits counted in the database (${TEST_DB})`, () => {
  let database: Database;
  let clock: Date;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  /** The store one server process would have, for one route. */
  function routeStore(route = '/api/fn/storePreInstallData'): FastifyRateLimitStore {
    const Store = sharedRateLimitStore({
      database,
      hashIdentifier: createHasher('rate-limit-test-secret-rate-limit-test'),
      now: () => clock,
      log: Fastify({ logger: false }).log,
    });
    return new Store({}).child({ routeInfo: { method: 'POST', url: route } } as never);
  }

  const incr = (store: FastifyRateLimitStore, ip: string, windowMs = MINUTE) =>
    new Promise<{ current: number; ttl: number }>((resolve, reject) =>
      store.incr(ip, (error, result) => (error || !result ? reject(error) : resolve(result)), windowMs, 5),
    );

  it('counts every hit once, across stores sharing the database, in arrival order', async () => {
    clock = new Date('2030-01-01T10:00:15Z');
    const processes = [routeStore(), routeStore(), routeStore()];
    // Twelve concurrent hits of one client spread over three "processes": 1 … 12, each once.
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => incr(processes[i % 3] as FastifyRateLimitStore, '203.0.113.7')),
    );
    expect(results.map((result) => result.current).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    // Within one process, in arrival order.
    expect(results.filter((_, i) => i % 3 === 0).map((result) => result.current)).toEqual(
      [...results.filter((_, i) => i % 3 === 0).map((result) => result.current)].sort((a, b) => a - b),
    );
    // The window ends on the minute: 45 s left.
    expect(results[0]?.ttl).toBe(45_000);
  });

  it('keeps clients, routes and windows apart', async () => {
    clock = new Date('2030-01-01T11:00:00Z');
    const visits = routeStore();
    const contact = routeStore('/api/fn/submitContactForm');
    expect((await incr(visits, '198.51.100.1')).current).toBe(1);
    expect((await incr(visits, '198.51.100.1')).current).toBe(2);
    expect((await incr(visits, '198.51.100.2')).current).toBe(1);
    expect((await incr(contact, '198.51.100.1')).current).toBe(1);
    // An hour-long window holds the minute's hits apart too.
    expect((await incr(visits, '198.51.100.1', 60 * MINUTE)).current).toBe(1);
    clock = new Date('2030-01-01T11:01:00Z');
    expect((await incr(visits, '198.51.100.1')).current).toBe(1);
  });

  it('stores no client address, only its keyed hash', async () => {
    clock = new Date('2030-01-01T12:00:00Z');
    await incr(routeStore(), '192.0.2.44');
    const { rows } = await database.sql.query<{ key: string }>('SELECT key FROM rate_limits');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((row) => row.key.includes('192.0.2.44'))).toBe(false);
    expect(rows.some((row) => row.key.startsWith('http:POST /api/fn/storePreInstallData:60000:'))).toBe(true);
  });
});
