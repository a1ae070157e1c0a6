import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { AppServices } from '../services.ts';
import { pruneOldWindows } from './rate-limiter.ts';

// The per-route, per-client limits of @fastify/rate-limit (the landing's visits, the contact form,
// the install attribution, every function's budget) counted in the database's rate_limits table, so
// that a limit holds across every server process sharing one PostgreSQL: hits spread over three
// processes trip it at the configured total, not three times over (docs/operations-processes.md).
// Fixed windows aligned on the clock, like lib/rate-limiter.ts. Two ways of counting:
//
// - Per request (`RateLimitCounter`), for the small budgets a few hits exhaust (visits, contact form,
//   attribution…): each request waits for one statement, shared with every request that arrived
//   meanwhile (group commit, as the visit writer does): one statement in flight per process, then
//   what queued during it. A limit trips at its exact total whichever processes served the hits.
// - Periodically (`PeriodicRateLimitCounter`), for a generous budget that only stops a flood (every
//   function's default, 300 a minute): each process counts in memory and answers at once, and adds
//   its hits to the table every twentieth of a second, learning the other processes' hits in return.
//   A client spread over N processes may get a few more calls than the budget — what each process
//   had not yet learnt — and no request waits for the database (ADR 013).
//
// The counters are not worth an fsync: the statement commits asynchronously (`synchronous_commit`
// off for its own transaction), so a database crash may forget the last counts — never a visit or an
// account.
//
// The embedded database belongs to one process: there the plugin's in-memory store is exact and
// costs no query (app.ts chooses).

type StoreCallback = Parameters<FastifyRateLimitStore['incr']>[1];

interface PendingHit {
  key: string;
  windowStart: number;
  windowMs: number;
  callback: StoreCallback;
}

export type SharedRateLimitServices = Pick<AppServices, 'database' | 'hashIdentifier' | 'now' | 'log'>;

const COUNT_SQL = `
WITH async_commit AS MATERIALIZED (SELECT set_config('synchronous_commit', 'off', true))
INSERT INTO rate_limits (key, window_start, hits)
SELECT hit.key, hit.window_start, hit.hits
FROM unnest($1::text[], $2::timestamptz[], $3::int[]) AS hit(key, window_start, hits), async_commit
ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_limits.hits + EXCLUDED.hits
RETURNING key, (extract(epoch FROM window_start) * 1000)::float8 AS window_ms, hits`;

/** Largest number of hits one statement counts; more waits for the next one. */
const MAX_BATCH = 1000;

/** The fixed window of `windowMs` (at least 1 ms) holding the time `now`, aligned on the clock. */
function windowAt(now: number, windowMs: number): { windowStart: number; windowMs: number } {
  const size = Math.max(1, windowMs);
  return { windowStart: Math.floor(now / size) * size, windowMs: size };
}

/** A (key, window) row's id in the totals `addHits` answers. */
const windowId = (windowStart: number, key: string) => `${windowStart}\u0000${key}`;

/**
 * Adds each row's hits to rate_limits in one statement and answers every row's new total by
 * `windowId`. The rows go in one order for every process: two statements updating the same rows
 * lock them in the same order and never deadlock.
 */
async function addHits(
  app: SharedRateLimitServices,
  rows: readonly { key: string; windowStart: number; hits: number }[],
): Promise<Map<string, number>> {
  const sorted = [...rows].sort((a, b) => (a.key === b.key ? a.windowStart - b.windowStart : a.key < b.key ? -1 : 1));
  const result = await app.database.sql.query<{ key: string; window_ms: number; hits: number }>(
    COUNT_SQL,
    [
      sorted.map((row) => row.key),
      sorted.map((row) => new Date(row.windowStart).toISOString()),
      sorted.map((row) => row.hits),
    ],
    { name: 'rate-limit-count' },
  );
  pruneOldWindows(app);
  // The window's start comes back as milliseconds: no date to parse for each row.
  return new Map(result.rows.map((row) => [windowId(Number(row.window_ms), row.key), Number(row.hits)]));
}

/** Counts hits in rate_limits, many per statement. */
export class RateLimitCounter {
  readonly #app: SharedRateLimitServices;
  #queue: PendingHit[] = [];
  #inFlight = false;
  #scheduled = false;

  constructor(app: SharedRateLimitServices) {
    this.#app = app;
  }

  /** Counts one hit of `key` in the window of `windowMs` holding now; calls back with the window's count. */
  hit(key: string, windowMs: number, callback: StoreCallback): void {
    this.#queue.push({ key, ...windowAt(this.#app.now().getTime(), windowMs), callback });
    if (!this.#scheduled && !this.#inFlight) {
      // The hits of the same turn of the event loop share the statement.
      this.#scheduled = true;
      setImmediate(() => {
        this.#scheduled = false;
        this.#flush();
      });
    }
  }

  #flush(): void {
    if (this.#inFlight || this.#queue.length === 0) return;
    const batch = this.#queue.splice(0, MAX_BATCH);
    this.#inFlight = true;
    void this.#count(batch).finally(() => {
      this.#inFlight = false;
      this.#flush();
    });
  }

  async #count(batch: PendingHit[]): Promise<void> {
    // One row per (key, window).
    const groups = new Map<string, { key: string; windowStart: number; hits: PendingHit[] }>();
    for (const hit of batch) {
      const id = windowId(hit.windowStart, hit.key);
      const group = groups.get(id) ?? { key: hit.key, windowStart: hit.windowStart, hits: [] };
      group.hits.push(hit);
      groups.set(id, group);
    }
    let totals: Map<string, number>;
    try {
      totals = await addHits(
        this.#app,
        [...groups.values()].map((group) => ({
          key: group.key,
          windowStart: group.windowStart,
          hits: group.hits.length,
        })),
      );
    } catch (error) {
      this.#app.log.warn({ err: error, hits: batch.length }, 'rate limit counting failed');
      for (const hit of batch) hit.callback(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    const now = this.#app.now().getTime();
    for (const [id, group] of groups) {
      const total = totals.get(id);
      group.hits.forEach((hit, index) => {
        if (total === undefined) {
          hit.callback(new Error('The rate limit was not counted.'));
          return;
        }
        // This statement's hits of the key are the last ones counted, in arrival order.
        const current = total - group.hits.length + index + 1;
        hit.callback(null, { current, ttl: Math.max(0, hit.windowStart + hit.windowMs - now) });
      });
    }
  }
}

/**
 * How often a periodic counter adds its hits to the table (and learns the other processes'). The
 * statement's rows are built, and its answer read, on the request thread: with many clients each one
 * is a pause of every request in flight. Every 50 ms rather than every 250 ms, the pauses are a fifth
 * as long (docs/benchmarks.md, "Dashboard statistics").
 */
export const PERIODIC_SYNC_MS = 50;

/** The longest a periodic counter with no hits to write waits before it looks for windows to forget. */
const IDLE_CHECK_MS = 60_000;

/**
 * Windows a periodic counter keeps in memory past this many are forgotten once their hits are in the
 * table (the oldest first): a later hit of such a client starts from the table's count at the next
 * statement. It bounds the memory a flood of addresses takes.
 */
const MAX_KEPT_WINDOWS = 50_000;

/** A route's `config.rateLimit` option: its limit is counted periodically (see the top of this file). */
export const PERIODIC_COUNTING = { sharedCounting: 'periodic' } as const;

interface WindowCount {
  id: string;
  /** The route and window length, as the key stored starts. */
  scope: string;
  /** The client (its address: hashed only when written). */
  client: string;
  /** The key stored: the scope and the client's keyed hash, computed when the window is first written. */
  key: string | null;
  windowStart: number;
  windowMs: number;
  /** The table's count when this process last added its hits (every process's hits until then). */
  known: number;
  /** Hits being added by the statement in flight. */
  sending: number;
  /** Hits counted here since. */
  unsent: number;
}

/**
 * Counts hits in memory, answers at once, and adds them to rate_limits every PERIODIC_SYNC_MS.
 *
 * A statement's work follows the windows hit since the last one, not every window kept: under a flood
 * of addresses tens of thousands are kept, and each statement runs on the request thread.
 */
export class PeriodicRateLimitCounter {
  readonly #app: SharedRateLimitServices;
  /** By window start and client key, in the order they were first hit (so, for one length, by end). */
  readonly #windows = new Map<string, WindowCount>();
  /** The windows with unsent hits, each once. */
  #hit: WindowCount[] = [];
  #timer: NodeJS.Timeout | null = null;
  /** When the timer fires (the machine's clock: timers run on it, not on a test clock). */
  #timerDue = 0;
  #syncing: Promise<void> | null = null;

  constructor(app: SharedRateLimitServices) {
    this.#app = app;
  }

  /**
   * Counts one hit of `client` under `scope` in the window of `windowMs` holding now; calls back at
   * once with the window's count.
   */
  hit(scope: string, client: string, windowMs: number, callback: StoreCallback): void {
    const now = this.#app.now().getTime();
    const { windowStart, windowMs: size } = windowAt(now, windowMs);
    const id = windowId(windowStart, `${scope}\u0000${client}`);
    let window = this.#windows.get(id);
    if (!window) {
      window = { id, scope, client, key: null, windowStart, windowMs: size, known: 0, sending: 0, unsent: 0 };
      this.#windows.set(id, window);
    }
    this.#addUnsent(window, 1);
    if (!this.#syncing) this.#schedule(PERIODIC_SYNC_MS);
    callback(null, { current: window.known + window.sending + window.unsent, ttl: windowStart + size - now });
  }

  /** Adds the hits counted so far to the table now (tests; the server's shutdown). */
  async flush(): Promise<void> {
    while (this.#syncing) await this.#syncing;
    await this.#sync();
  }

  #addUnsent(window: WindowCount, hits: number): void {
    if (window.unsent === 0 && hits > 0) this.#hit.push(window);
    window.unsent += hits;
  }

  /** The next statement in `delay` ms, unless one is due sooner. */
  #schedule(delay: number): void {
    const due = Date.now() + delay;
    if (this.#timer && this.#timerDue <= due) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timerDue = due;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#sync();
    }, delay);
    // Counting never keeps a process alive.
    this.#timer.unref();
  }

  #sync(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const run = this.#send().finally(() => {
      this.#syncing = null;
      this.#scheduleNext();
    });
    this.#syncing = run;
    return run;
  }

  /**
   * Soon when hits wait; else when the oldest window kept ends (to forget it), looking again at least
   * every IDLE_CHECK_MS (a clock set back would put that end far ahead); else never.
   */
  #scheduleNext(): void {
    if (this.#hit.length > 0) return this.#schedule(PERIODIC_SYNC_MS);
    const oldest = this.#windows.values().next();
    if (oldest.done) return;
    const untilEnd = oldest.value.windowStart + oldest.value.windowMs - this.#app.now().getTime();
    this.#schedule(Math.min(IDLE_CHECK_MS, Math.max(PERIODIC_SYNC_MS, untilEnd)));
  }

  async #send(): Promise<void> {
    const now = this.#app.now().getTime();
    const ended = (window: WindowCount) => window.windowStart + window.windowMs <= now;
    // Windows that ended are forgotten, hits and all: the oldest first, up to the first still open.
    for (const window of this.#windows.values()) {
      if (!ended(window)) break;
      this.#windows.delete(window.id);
    }
    const due = this.#hit.filter((window) => !ended(window));
    this.#hit = [];
    for (let start = 0; start < due.length; start += MAX_BATCH)
      await this.#sendBatch(due.slice(start, start + MAX_BATCH));
    // Past MAX_KEPT_WINDOWS, the oldest windows whose hits are all in the table are forgotten.
    for (const window of this.#windows.values()) {
      if (this.#windows.size <= MAX_KEPT_WINDOWS) break;
      if (window.unsent === 0 && window.sending === 0) this.#windows.delete(window.id);
    }
  }

  async #sendBatch(batch: WindowCount[]): Promise<void> {
    for (const window of batch) {
      window.sending = window.unsent;
      window.unsent = 0;
      window.key ??= `${window.scope}${this.#app.hashIdentifier(window.client)}`;
    }
    try {
      const totals = await addHits(
        this.#app,
        batch.map((window) => ({ key: window.key as string, windowStart: window.windowStart, hits: window.sending })),
      );
      for (const window of batch) {
        window.known = totals.get(windowId(window.windowStart, window.key as string)) ?? window.known + window.sending;
        window.sending = 0;
      }
    } catch (error) {
      this.#app.log.warn({ err: error, windows: batch.length }, 'rate limit counting failed');
      // Kept for the next statement: the hits still count here.
      for (const window of batch) {
        const hits = window.sending;
        window.sending = 0;
        this.#addUnsent(window, hits);
      }
    }
  }
}

/** The store class for @fastify/rate-limit, and how to add its periodic counts to the table now. */
export interface SharedRateLimitStore {
  Store: FastifyRateLimitStoreCtor;
  flush(): Promise<void>;
}

/**
 * The store to give @fastify/rate-limit (`store`): each route counts under its own name, each client
 * under the keyed hash of its address (raw addresses are never stored); a route whose options carry
 * PERIODIC_COUNTING is counted periodically.
 */
export function sharedRateLimitStore(app: SharedRateLimitServices): SharedRateLimitStore {
  const perRequest = new RateLimitCounter(app);
  const periodic = new PeriodicRateLimitCounter(app);

  class Store implements FastifyRateLimitStore {
    readonly #scope: string;
    readonly #periodic: boolean;

    constructor(_options?: unknown, scope = 'global', periodicCounting = false) {
      this.#scope = scope;
      this.#periodic = periodicCounting;
    }

    incr(key: string, callback: StoreCallback, timeWindow: number): void {
      // The window's length is part of the key: windows of different lengths may start together.
      const scoped = `http:${this.#scope}:${timeWindow}:`;
      if (this.#periodic) periodic.hit(scoped, key, timeWindow, callback);
      else perRequest.hit(`${scoped}${app.hashIdentifier(key)}`, timeWindow, callback);
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // The plugin passes the route's merged options, the route itself under `routeInfo`.
      const options = routeOptions as { routeInfo?: { method?: unknown; url?: unknown }; sharedCounting?: unknown };
      const route = options.routeInfo ?? routeOptions;
      const method = Array.isArray(route.method) ? route.method.join(',') : String(route.method ?? '');
      return new Store(
        undefined,
        `${method} ${String(route.url ?? '')}`,
        options.sharedCounting === PERIODIC_COUNTING.sharedCounting,
      );
    }
  }

  return { Store, flush: () => periodic.flush() };
}
