import {
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_EVENT_TYPE_HEADER,
  WEBHOOK_LOG_RETENTION_DAYS,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_DELAYS_MINUTES,
  WEBHOOK_RETRY_JITTER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMEOUT_MS,
  type WebhookAttemptError,
  type WebhookDeliveryStatus,
} from '@skanova/shared/webhooks/constants';
import { inTransaction } from '../db/transaction.ts';
import type { AppServices } from '../services.ts';
import { type Resolver, addressPolicy, checkWebhookUrl, systemResolver } from './address-guard.ts';
import { signingSecrets } from './endpoint-secrets.ts';
import { type SendResult, postWebhook } from './send.ts';
import { signatureHeader } from './signature.ts';
import { onWebhookEvents } from './signal.ts';

// The webhook worker (docs/product/webhooks.md#delivery-and-retries). Two steps, each safe with several
// server processes:
//
// 1. Dispatch: events not yet dispatched get their deliveries, one per endpoint enabled and
//    subscribed to their type, in the events' order. One dispatcher at a time (a transaction-level
//    advisory lock, then the statement's own snapshot): delivery ids then follow the order in which
//    the events' transactions made them visible, which is the order deliveries keep
//    (docs/product/webhooks.md#ordering) — an event can only be seen once every event its
//    transaction depended on was.
// 2. Delivery, as the e-mail outbox sends (email/outbox-worker.ts): a claim counts the attempt and
//    pushes `next_attempt_at` a lease ahead (`FOR UPDATE SKIP LOCKED`: no two workers take one row),
//    then the POSTs happen outside any transaction, then one statement records the batch's outcomes
//    and their log rows. A delivery is claimed only when no earlier delivery of the same affiliate
//    to the same endpoint is still pending, so a receiver gets an affiliate's events in order even
//    while one of them is being retried (the others wait; other affiliates' go on). 2xx is
//    delivered; anything else is retried after 1 min, 5 min, 30 min, 2 h … (about three days in all,
//    with jitter), then the delivery is `failed` and stops holding the affiliate's later ones.
//
// The scheduled job (jobs/scheduler.ts) drains on every tick; a transaction that wrote events wakes
// this process's worker once it commits (signal.ts), so a delivery normally leaves within
// milliseconds. Drains of one app never overlap in a process: a wake-up during a drain queues one
// more. Only a process that dies between the receiver's 2xx and the record can send an event twice
// (after its lease): receivers deduplicate on the event id.

export type WebhookApp = Pick<AppServices, 'database' | 'config' | 'cipher' | 'log' | 'now'>;

/** How long a claimed delivery is left to its worker: the time-out, a DNS lookup and the record, twice over. */
export const LEASE_MS = 60_000;
/** Deliveries claimed per statement, by each lane. */
const CLAIM_BATCH = 16;
/** Claim loops running side by side: a slow receiver holds up its own batch only. */
const LANES = 4;
/** Events dispatched per statement. */
const DISPATCH_BATCH = 1_000;
/** Old events deleted per statement, with their deliveries and attempts. */
const PURGE_BATCH = 1_000;
/** Arbitrary constant: the advisory lock key that serialises dispatching across processes. */
const DISPATCH_LOCK_KEY = 727_274_025;
const DAY_MS = 86_400_000;

export interface WebhookDrainOptions {
  /** Attempts at most in this drain (default: until nothing is due). */
  limit?: number;
  /** Delete events past their retention, with their deliveries and log (the scheduled job does). */
  purge?: boolean;
  /** The receivers' time-out (tests shorten it). */
  timeoutMs?: number;
  /** Name resolution (tests stand in for DNS). */
  resolve?: Resolver;
}

export interface WebhookDrainCounts {
  dispatched: number;
  delivered: number;
  retrying: number;
  failed: number;
  purged: number;
}

const DISPATCH_SQL = `
WITH ev AS (
  SELECT id, seq, type, affiliate_id FROM webhook_events
  WHERE dispatched_at IS NULL
  ORDER BY seq
  LIMIT $1
), fan AS (
  INSERT INTO webhook_deliveries (event_id, endpoint_id, affiliate_id, next_attempt_at, created_at)
  SELECT ev.id, e.id, ev.affiliate_id, $2::timestamptz, $2::timestamptz
  FROM ev JOIN webhook_endpoints e ON e.enabled AND ev.type = ANY (e.event_types)
  ORDER BY ev.seq, e.id
  ON CONFLICT (event_id, endpoint_id) DO NOTHING
  RETURNING 1
), marked AS (
  UPDATE webhook_events w SET dispatched_at = $2::timestamptz FROM ev WHERE w.id = ev.id RETURNING 1
)
SELECT (SELECT count(*) FROM marked)::int AS events, (SELECT count(*) FROM fan)::int AS deliveries`;

const CLAIM_SQL = `
WITH due AS (
  SELECT d.id FROM webhook_deliveries d
  JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.enabled
  WHERE d.status = 'pending' AND d.next_attempt_at <= greatest(now(), $1::timestamptz)
    AND (d.affiliate_id IS NULL OR NOT EXISTS (
      SELECT 1 FROM webhook_deliveries p
      WHERE p.endpoint_id = d.endpoint_id AND p.affiliate_id = d.affiliate_id
        AND p.status = 'pending' AND p.id < d.id))
  ORDER BY d.next_attempt_at, d.id
  LIMIT $2
  FOR UPDATE OF d SKIP LOCKED
)
UPDATE webhook_deliveries d
SET attempts = d.attempts + 1,
    last_attempt_at = $1::timestamptz,
    next_attempt_at = greatest(now(), $1::timestamptz) + make_interval(secs => $3::double precision)
FROM due, webhook_events ev, webhook_endpoints e
WHERE d.id = due.id AND ev.id = d.event_id AND e.id = d.endpoint_id
RETURNING d.id::text AS id, d.attempts, d.queued_at_attempt, ev.id::text AS event_id, ev.type, ev.data,
          ev.created_at, e.id::text AS endpoint_id, e.url, e.secret_sealed, e.previous_secret_sealed,
          e.previous_secret_expires_at`;

/** The outcomes of a claimed batch, one statement (and one commit) for all of them. */
const RECORD_SQL = `
WITH outcome AS (
  SELECT * FROM unnest($1::bigint[], $2::text[], $3::int[], $4::text[], $5::double precision[], $6::int[],
                       $7::timestamptz[], $8::int[])
    AS o(id, status, status_code, error, retry_seconds, attempt, started_at, duration_ms)
), updated AS (
  UPDATE webhook_deliveries d
  SET status = o.status,
      last_status_code = o.status_code,
      last_error = o.error,
      delivered_at = CASE WHEN o.status = 'delivered' THEN $9::timestamptz END,
      next_attempt_at = CASE WHEN o.status = 'pending'
                             THEN greatest(now(), $9::timestamptz) + make_interval(secs => o.retry_seconds)
                             ELSE d.next_attempt_at END
  FROM outcome o
  -- Only the claim that made this attempt records it (after a lease ran out, another may have).
  WHERE d.id = o.id AND d.status = 'pending' AND d.attempts = o.attempt
  RETURNING d.id, o.attempt, o.started_at, o.duration_ms, o.status_code, o.error
)
INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error)
SELECT id, attempt, started_at, duration_ms, status_code, error FROM updated`;

const PURGE_SQL = `
DELETE FROM webhook_events WHERE id IN (
  SELECT ev.id FROM webhook_events ev
  WHERE ev.created_at < $1::timestamptz AND ev.dispatched_at IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = ev.id AND d.status = 'pending')
  ORDER BY ev.created_at
  LIMIT $2
)
RETURNING 1`;

interface ClaimedDelivery {
  id: string;
  attempts: number;
  queued_at_attempt: number;
  event_id: string;
  type: string;
  data: unknown;
  created_at: Date | string;
  endpoint_id: string;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | string | null;
}

/** Gives the undispatched events their deliveries; answers how many events were dispatched. */
export async function dispatchWebhookEvents(app: Pick<AppServices, 'database' | 'now'>): Promise<number> {
  let dispatched = 0;
  for (;;) {
    const events = await inTransaction(app, async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [DISPATCH_LOCK_KEY]);
      const { rows } = await tx.query<{ events: number }>(DISPATCH_SQL, [DISPATCH_BATCH, app.now().toISOString()]);
      return rows[0]?.events ?? 0;
    });
    dispatched += events;
    if (events < DISPATCH_BATCH) return dispatched;
  }
}

/** The wait before the retry that follows the `attemptInCycle`-th attempt, with its jitter. */
export function retryDelayMs(attemptInCycle: number, random: () => number = Math.random): number {
  const minutes = WEBHOOK_RETRY_DELAYS_MINUTES[Math.min(attemptInCycle, WEBHOOK_RETRY_DELAYS_MINUTES.length) - 1]!;
  return Math.round(minutes * 60_000 * (1 + WEBHOOK_RETRY_JITTER * random()));
}

/** The body of a delivery: the event as receivers read it (@skanova/shared/webhooks/events). */
function eventBody(row: ClaimedDelivery): string {
  return JSON.stringify({
    id: row.event_id,
    type: row.type,
    created: new Date(row.created_at).toISOString(),
    data: row.data,
  });
}

async function attempt(app: WebhookApp, row: ClaimedDelivery, options: WebhookDrainOptions): Promise<SendResult> {
  const check = await checkWebhookUrl(row.url, addressPolicy(app.config), options.resolve ?? systemResolver);
  if (!check.ok) {
    const error: WebhookAttemptError =
      check.reason === 'dns-failed'
        ? 'dns-failed'
        : check.reason === 'address-refused'
          ? 'address-refused'
          : 'url-refused';
    return { statusCode: null, error, durationMs: 0 };
  }
  const body = eventBody(row);
  // Signed at the wall clock's time, which receivers compare with theirs (the app's clock moves in tests).
  const signature = signatureHeader(body, signingSecrets(app.cipher, row, app.now()), new Date());
  return postWebhook(
    check.url,
    check.address,
    body,
    {
      'user-agent': `${app.config.BRAND_NAME}-Webhooks/1`,
      [WEBHOOK_SIGNATURE_HEADER.toLowerCase()]: signature,
      [WEBHOOK_EVENT_ID_HEADER.toLowerCase()]: row.event_id,
      [WEBHOOK_EVENT_TYPE_HEADER.toLowerCase()]: row.type,
    },
    options.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
  );
}

interface Outcome {
  row: ClaimedDelivery;
  status: WebhookDeliveryStatus;
  result: SendResult;
  startedAt: Date;
  retryMs: number;
}

/** Sends one claimed delivery; answers what came of it (recorded with its batch). */
async function deliver(app: WebhookApp, row: ClaimedDelivery, options: WebhookDrainOptions): Promise<Outcome> {
  const startedAt = app.now();
  let result: SendResult;
  try {
    result = await attempt(app, row, options);
  } catch (error) {
    app.log.error({ err: error, deliveryId: row.id }, 'webhook delivery attempt failed unexpectedly');
    result = { statusCode: null, error: 'connection-failed', durationMs: 0 };
  }
  const attemptInCycle = row.attempts - row.queued_at_attempt;
  const status: WebhookDeliveryStatus =
    result.error === null ? 'delivered' : attemptInCycle >= WEBHOOK_MAX_ATTEMPTS ? 'failed' : 'pending';
  return { row, status, result, startedAt, retryMs: status === 'pending' ? retryDelayMs(attemptInCycle) : 0 };
}

/** Records a batch's outcomes and logs its failures. */
async function record(app: WebhookApp, outcomes: Outcome[]): Promise<void> {
  try {
    await app.database.sql.query(RECORD_SQL, [
      outcomes.map((outcome) => outcome.row.id),
      outcomes.map((outcome) => outcome.status),
      outcomes.map((outcome) => outcome.result.statusCode),
      outcomes.map((outcome) => outcome.result.error),
      outcomes.map((outcome) => outcome.retryMs / 1000),
      outcomes.map((outcome) => outcome.row.attempts),
      outcomes.map((outcome) => outcome.startedAt.toISOString()),
      outcomes.map((outcome) => outcome.result.durationMs),
      app.now().toISOString(),
    ]);
  } catch (error) {
    // Unrecorded, the attempts are made again when their lease ends.
    app.log.error({ err: error, deliveries: outcomes.length }, 'webhook delivery outcomes not recorded');
  }
  for (const { row, status, result } of outcomes) {
    const fields = {
      deliveryId: row.id,
      endpointId: row.endpoint_id,
      eventType: row.type,
      attempt: row.attempts,
      statusCode: result.statusCode,
      error: result.error,
    };
    if (status === 'failed') app.log.error(fields, 'webhook delivery given up');
    else if (status === 'pending') app.log.warn(fields, 'webhook delivery failed, will retry');
  }
}

async function claim(app: WebhookApp, limit: number): Promise<ClaimedDelivery[]> {
  const { rows } = await app.database.sql.query<ClaimedDelivery>(CLAIM_SQL, [
    app.now().toISOString(),
    limit,
    LEASE_MS / 1000,
  ]);
  return rows;
}

/** Deletes events past their retention with their deliveries and log; answers how many events. */
export async function purgeWebhookLog(app: Pick<AppServices, 'database' | 'now'>): Promise<number> {
  const before = new Date(app.now().getTime() - WEBHOOK_LOG_RETENTION_DAYS * DAY_MS).toISOString();
  let purged = 0;
  for (;;) {
    const { rows } = await app.database.sql.query(PURGE_SQL, [before, PURGE_BATCH]);
    purged += rows.length;
    if (rows.length < PURGE_BATCH) return purged;
  }
}

async function drain(app: WebhookApp, options: WebhookDrainOptions): Promise<WebhookDrainCounts> {
  const counts: WebhookDrainCounts = { dispatched: 0, delivered: 0, retrying: 0, failed: 0, purged: 0 };
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const state = stateOf(app);
  let attempted = 0;
  const lane = async () => {
    // A stopping process finishes the attempts under way and claims no more.
    while (attempted < limit && !state.stopping) {
      const rows = await claim(app, Math.min(CLAIM_BATCH, limit - attempted));
      if (rows.length === 0) return;
      attempted += rows.length;
      const outcomes = await Promise.all(rows.map((row) => deliver(app, row, options)));
      await record(app, outcomes);
      for (const { status } of outcomes) {
        if (status === 'delivered') counts.delivered += 1;
        else if (status === 'failed') counts.failed += 1;
        else counts.retrying += 1;
      }
    }
  };
  // Until a round finds nothing new: the deliveries it made may have released an affiliate's next one.
  for (;;) {
    const dispatched = await dispatchWebhookEvents(app);
    counts.dispatched += dispatched;
    const before = attempted;
    await Promise.all(Array.from({ length: LANES }, lane));
    if ((dispatched === 0 && attempted === before) || attempted >= limit || state.stopping) break;
  }
  if (options.purge) counts.purged = await purgeWebhookLog(app);
  return counts;
}

// One drain at a time per app (per database), in this process.

interface WorkerState {
  tail: Promise<unknown>;
  wakeQueued: boolean;
  /** The scheduler is stopping (the process shuts down): drains claim nothing more until it has. */
  stopping: boolean;
}

const states = new WeakMap<object, WorkerState>();

function stateOf(app: Pick<AppServices, 'database'>): WorkerState {
  let state = states.get(app.database);
  if (!state) {
    state = { tail: Promise.resolve(), wakeQueued: false, stopping: false };
    states.set(app.database, state);
  }
  return state;
}

function serially<T>(app: Pick<AppServices, 'database'>, work: () => Promise<T>): Promise<T> {
  const state = stateOf(app);
  const run = state.tail.then(work, work);
  state.tail = run.catch(() => {});
  return run;
}

/**
 * Dispatches the new events and sends what is due, until nothing is (or `limit` attempts); after the
 * drain under way in this process, if any.
 */
export function deliverDueWebhooks(app: WebhookApp, options: WebhookDrainOptions = {}): Promise<WebhookDrainCounts> {
  return serially(app, () => drain(app, options));
}

/** Resolves once the drains this process started for `app` are done. */
export async function webhooksIdle(app: Pick<AppServices, 'database'>): Promise<void> {
  await stateOf(app).tail;
}

/**
 * Drains as soon as a transaction of this process commits events (signal.ts), until the answer is
 * called; the answer stops the drains of this app (the attempts under way finish, nothing more is
 * claimed) and resolves once they are done.
 */
export function watchWebhookEvents(app: WebhookApp): () => Promise<void> {
  const state = stateOf(app);
  state.stopping = false;
  let stopped = false;
  const wake = () => {
    if (stopped || state.wakeQueued) return;
    state.wakeQueued = true;
    void serially(app, async () => {
      state.wakeQueued = false;
      if (!stopped) await drain(app, {});
    }).catch((error: unknown) => app.log.error({ err: error }, 'webhook drain failed'));
  };
  const unsubscribe = onWebhookEvents(wake);
  return async () => {
    stopped = true;
    state.stopping = true;
    unsubscribe();
    await state.tail;
    // Drains asked for later (a test's, another app's on the same database) run again.
    state.stopping = false;
  };
}
