import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { AppServices } from '../services.ts';
import { pruneOldWindows } from './rate-limiter.ts';

// The per-route, per-client limits of @fastify/rate-limit (the landing's visits, the contact form,
// the install attribution, every function's budget) counted in the database's rate_limits table, so
// that a limit holds across every server process sharing one PostgreSQL: hits spread over three
// processes trip it at the configured total, not three times over (docs/operations-processes.md).
//
// Fixed windows aligned on the clock, like lib/rate-limiter.ts. Each request waits for one
// statement, shared with every request that arrived meanwhile (group commit, as the click writer
// does): one statement in flight per process, then what queued during it. The counters are not
// worth an fsync: the statement commits asynchronously (`synchronous_commit` off for its own
// transaction), so a database crash may forget the last counts — never a visit or an account.
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
RETURNING key, window_start, hits`;

/** Largest number of hits one statement counts; more waits for the next one. */
const MAX_BATCH = 1000;

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
    const now = this.#app.now().getTime();
    const size = Math.max(1, windowMs);
    this.#queue.push({ key, windowStart: Math.floor(now / size) * size, windowMs: size, callback });
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
    // One row per (key, window), in one order for every process: two statements updating the same
    // rows lock them in the same order and never deadlock.
    const groups = new Map<string, { key: string; windowStart: number; hits: PendingHit[] }>();
    for (const hit of batch) {
      const id = `${hit.windowStart}\u0000${hit.key}`;
      const group = groups.get(id) ?? { key: hit.key, windowStart: hit.windowStart, hits: [] };
      group.hits.push(hit);
      groups.set(id, group);
    }
    const rows = [...groups.values()].sort((a, b) =>
      a.key === b.key ? a.windowStart - b.windowStart : a.key < b.key ? -1 : 1,
    );
    let totals: Map<string, number>;
    try {
      const result = await this.#app.database.sql.query<{ key: string; window_start: Date | string; hits: number }>(
        COUNT_SQL,
        [
          rows.map((row) => row.key),
          rows.map((row) => new Date(row.windowStart).toISOString()),
          rows.map((row) => row.hits.length),
        ],
        { name: 'rate-limit-count' },
      );
      totals = new Map(
        result.rows.map((row) => [`${new Date(row.window_start).getTime()}\u0000${row.key}`, Number(row.hits)]),
      );
    } catch (error) {
      this.#app.log.warn({ err: error, hits: batch.length }, 'rate limit counting failed');
      for (const hit of batch) hit.callback(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    pruneOldWindows(this.#app);
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
 * The store to give @fastify/rate-limit (`store`): each route counts under its own name, each client
 * under the keyed hash of its address (raw addresses are never stored).
 */
export function sharedRateLimitStore(app: SharedRateLimitServices): FastifyRateLimitStoreCtor {
  const counter = new RateLimitCounter(app);

  class SharedRateLimitStore implements FastifyRateLimitStore {
    readonly #scope: string;

    constructor(_options?: unknown, scope = 'global') {
      this.#scope = scope;
    }

    incr(key: string, callback: StoreCallback, timeWindow: number): void {
      // The window's length is part of the key: windows of different lengths may start together.
      counter.hit(`http:${this.#scope}:${timeWindow}:${app.hashIdentifier(key)}`, timeWindow, callback);
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // The plugin passes the route's merged options, the route itself under `routeInfo`.
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo ?? routeOptions;
      const method = Array.isArray(route.method) ? route.method.join(',') : String(route.method ?? '');
      return new SharedRateLimitStore(undefined, `${method} ${String(route.url ?? '')}`);
    }
  }

  return SharedRateLimitStore;
}
