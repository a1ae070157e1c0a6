import type { AppServices } from '../services.ts';

// Fixed-window counters in the database (docs/product/rules-and-constants.md#sign-in-limits): sign-in, signup and password-reset limits hold
// across every server process sharing the database. One upsert per check.

export interface LimitRule {
  /** Rule name and client, e.g. `signin:ip:203.0.113.7`; personal values are hashed by the caller. */
  key: string;
  max: number;
  windowSeconds: number;
}

function windowStart(now: Date, windowSeconds: number): Date {
  const size = windowSeconds * 1000;
  return new Date(Math.floor(now.getTime() / size) * size);
}

/** Counts one hit; `true` when the hit is within the limit. */
export async function hit(app: AppServices, rule: LimitRule): Promise<boolean> {
  return (await take(app, rule)).allowed;
}

/** One hit counted by `take`, which `giveBack` can take back. */
export interface TakenHit {
  /** Whether the hit is within the limit. */
  allowed: boolean;
  key: string;
  windowStart: Date;
}

/**
 * Counts one hit before the work it limits and answers whether that work may go on: the count and
 * the check are one statement, so attempts running at the same time cannot all read the count from
 * before any of them (each gets its own number). Used where only some outcomes should count (failed
 * sign-ins): the attempt counts first, and `giveBack` takes it back once it proves harmless.
 */
export async function take(app: AppServices, rule: LimitRule): Promise<TakenHit> {
  const start = windowStart(app.now(), rule.windowSeconds);
  const { rows } = await app.database.sql.query<{ hits: number }>(
    `INSERT INTO rate_limits (key, window_start, hits) VALUES ($1, $2, 1)
     ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_limits.hits + 1
     RETURNING hits`,
    [rule.key, start],
  );
  pruneOldWindows(app);
  return { allowed: (rows[0]?.hits ?? 0) <= rule.max, key: rule.key, windowStart: start };
}

/** Takes back a hit counted by `take` (in the window it was counted in; never below zero). */
export async function giveBack(app: AppServices, taken: TakenHit): Promise<void> {
  await app.database.sql.query(
    'UPDATE rate_limits SET hits = hits - 1 WHERE key = $1 AND window_start = $2 AND hits > 0',
    [taken.key, taken.windowStart],
  );
}

/** Old windows are deleted now and then (about one check in 200); the longest window is a day. */
export function pruneOldWindows(app: Pick<AppServices, 'database' | 'now' | 'log'>): void {
  if (Math.random() >= 0.005) return;
  const cutoff = new Date(app.now().getTime() - 24 * 60 * 60 * 1000);
  app.database.sql.query('DELETE FROM rate_limits WHERE window_start < $1', [cutoff]).catch((error: unknown) => {
    app.log.warn({ err: error }, 'rate limit pruning failed');
  });
}
