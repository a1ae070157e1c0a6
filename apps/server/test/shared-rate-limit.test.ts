import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { createHasher } from '../src/lib/secrets.ts';
import {
  PERIODIC_COUNTING,
  PERIODIC_SYNC_MS,
  type SharedRateLimitServices,
  sharedRateLimitStore,
} from '../src/lib/shared-rate-limit.ts';
import { memoryMailer, serveTestApp, testConfig } from './helpers/app.ts';
import { callFn } from './helpers/affiliates.ts';
import { TEST_DB, createTestDatabase } from './helpers/database.ts';

// The rate limits of the HTTP routes counted in the database (PostgreSQL's store; the statement runs
// on both databases): hits of one client on one route add up across stores sharing the database —
// as they do across server processes — in fixed windows, under a hashed client key. Per request (a
// small budget's exact count) or periodically (a generous budget: answered at once, shared at each
// statement).

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

  const services = (): SharedRateLimitServices => ({
    database,
    hashIdentifier: createHasher('rate-limit-test-secret-rate-limit-test'),
    now: () => clock,
    log: Fastify({ logger: false }).log,
  });

  /** The store one server process would have, for one route. */
  function routeStore(route = '/api/fn/storePreInstallData'): FastifyRateLimitStore {
    const { Store } = sharedRateLimitStore(services());
    return new Store({}).child({ routeInfo: { method: 'POST', url: route } } as never);
  }

  /** One server process's store for a periodically counted route, and its flush. */
  function periodicStore(app = services(), route = '/api/fn/getAffiliateStats') {
    const shared = sharedRateLimitStore(app);
    const store = new shared.Store({}).child({
      routeInfo: { method: 'POST', url: route },
      ...PERIODIC_COUNTING,
    } as never);
    return { store, flush: shared.flush };
  }

  /** The hits the table holds for a route's one-minute windows. */
  async function storedHits(route: string): Promise<number> {
    const { rows } = await database.sql.query<{ hits: number }>(
      'SELECT coalesce(sum(hits), 0)::int AS hits FROM rate_limits WHERE key LIKE $1',
      [`http:POST ${route}:60000:%`],
    );
    return rows[0]?.hits ?? 0;
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

  it("answers periodically counted hits at once and learns the other processes' hits at each statement", async () => {
    clock = new Date('2030-01-01T13:00:10Z');
    const route = '/api/fn/getAffiliateStats';
    const first = periodicStore();
    const second = periodicStore();
    const client = '203.0.113.20';
    const counts = async (process: ReturnType<typeof periodicStore>, hits: number) => {
      const answers = [];
      for (let i = 0; i < hits; i++) answers.push((await incr(process.store, client)).current);
      return answers;
    };
    // Each process counts its own hits before any statement: nothing waited for the database.
    expect(await counts(first, 4)).toEqual([1, 2, 3, 4]);
    expect(await counts(second, 3)).toEqual([1, 2, 3]);
    expect(await storedHits(route)).toBe(0);
    await first.flush();
    await second.flush();
    expect(await storedHits(route)).toBe(7);
    // The first added its hits before the second: it knows 4, the second knows all 7.
    expect(await counts(first, 1)).toEqual([5]);
    expect(await counts(second, 1)).toEqual([8]);
    await first.flush();
    expect(await counts(first, 1)).toEqual([9]);
    await first.flush();
    await second.flush();
    expect(await storedHits(route)).toBe(10);
    // A new window starts from nothing; the ttl runs to its end.
    clock = new Date('2030-01-01T13:01:30Z');
    const next = await incr(first.store, client);
    expect(next).toEqual({ current: 1, ttl: 30_000 });
    await first.flush();
  });

  it('adds periodically counted hits to the table without being asked', async () => {
    clock = new Date('2030-01-01T14:00:00Z');
    const route = '/api/fn/getAffiliateSettings';
    const { store } = periodicStore(services(), route);
    await incr(store, '198.51.100.30');
    await incr(store, '198.51.100.31');
    await vi.waitFor(async () => expect(await storedHits(route)).toBe(2), { timeout: 5_000, interval: 50 });
  });

  it('keeps periodically counted hits when a statement fails, and adds them with the next', async () => {
    clock = new Date('2030-01-01T15:00:00Z');
    const route = '/api/fn/getAffiliatePayouts';
    let failures = 1;
    const app = services();
    const failing: SharedRateLimitServices = {
      ...app,
      database: {
        ...database,
        sql: {
          ...database.sql,
          query: (...args: Parameters<Database['sql']['query']>) => {
            if (failures > 0) {
              failures -= 1;
              return Promise.reject(new Error('connection lost'));
            }
            return database.sql.query(...args);
          },
        } as Database['sql'],
      },
    };
    const { store, flush } = periodicStore(failing, route);
    expect((await incr(store, '192.0.2.50')).current).toBe(1);
    await flush();
    expect(await storedHits(route)).toBe(0);
    expect((await incr(store, '192.0.2.50')).current).toBe(2);
    await flush();
    expect(await storedHits(route)).toBe(2);
  });

  it('writes only the windows hit since the last statement, hashes each client once, forgets ended windows, survives a clock set back', async () => {
    clock = new Date('2030-01-01T16:00:00Z');
    const route = '/api/fn/getAffiliateReferralCodes';
    const app = services();
    const sent: number[] = [];
    let hashes = 0;
    const watched: SharedRateLimitServices = {
      ...app,
      hashIdentifier: (value) => {
        hashes += 1;
        return app.hashIdentifier(value);
      },
      database: {
        ...database,
        sql: {
          ...database.sql,
          query: (...args: Parameters<Database['sql']['query']>) => {
            // The counting statements alone: now and then a statement also prunes old windows.
            if (args[2]?.name === 'rate-limit-count') sent.push((args[1]?.[0] as unknown[]).length);
            return database.sql.query(...args);
          },
        } as Database['sql'],
      },
    };
    const { store, flush } = periodicStore(watched, route);
    // A flood of 300 addresses, then two of them again: the second statement carries those two.
    for (let i = 0; i < 300; i++) await incr(store, `2001:db8::${i.toString(16)}`);
    await flush();
    await incr(store, '2001:db8::7');
    await incr(store, '2001:db8::7');
    await incr(store, '2001:db8::9');
    await flush();
    expect(sent).toEqual([300, 2]);
    expect(hashes).toBe(300);
    expect(await storedHits(route)).toBe(303);
    expect((await incr(store, '2001:db8::7')).current).toBe(4);
    // The next minute: the ended windows are forgotten, the new one starts from nothing and is sent alone.
    clock = new Date('2030-01-01T16:01:00Z');
    expect((await incr(store, '2001:db8::7')).current).toBe(1);
    await flush();
    expect(sent).toEqual([300, 2, 1]);
    expect(hashes).toBe(301);
    // A clock set back 100 days puts the oldest window's end far ahead: the next look stays a timer's
    // length (a delay past 2^31 ms would fire at once, again and again).
    const warnings = vi.spyOn(process, 'emitWarning');
    try {
      clock = new Date('2029-09-23T16:01:00Z');
      await flush();
      expect(warnings).not.toHaveBeenCalled();
    } finally {
      warnings.mockRestore();
    }
  });
});

// The app's wiring: a function without a budget of its own gets the default one, counted periodically
// on PostgreSQL (on PGlite the plugin's in-memory store counts it: one process, nothing to share).
describe.skipIf(TEST_DB !== 'postgres')("the functions' default budget in the app (postgres)", () => {
  it('refuses the 301st call of a minute, and writes the hits when the app closes', async () => {
    const database = await createTestDatabase();
    try {
      const t = await serveTestApp(database, testConfig(), { mailer: memoryMailer().mailer });
      const key = 'http:POST /api/fn/getAffiliateStats:60000:%';
      const stored = async () =>
        (
          await database.sql.query<{ hits: number }>(
            'SELECT coalesce(sum(hits), 0)::int AS hits FROM rate_limits WHERE key LIKE $1',
            [key],
          )
        ).rows[0]?.hits;
      const started = Date.now();
      const statuses = [(await callFn(t, 'getAffiliateStats', null, undefined, '203.0.113.61')).status];
      const first = await stored();
      // Counted per request, the hit would be in the table before the answer; counted periodically, it
      // is written PERIODIC_SYNC_MS later (unless this machine stalled that long meanwhile).
      if (Date.now() - started < PERIODIC_SYNC_MS) expect(first).toBe(0);
      for (let i = 1; i < 301; i++)
        statuses.push((await callFn(t, 'getAffiliateStats', null, undefined, '203.0.113.61')).status);
      // Anonymous calls: refused as unauthenticated, counted all the same, until the budget is spent.
      expect(statuses.slice(0, 300).every((status) => status === 401)).toBe(true);
      expect(statuses[300]).toBe(429);
      await t.close();
      expect(await stored()).toBe(301);
    } finally {
      await database.close();
    }
  });
});
