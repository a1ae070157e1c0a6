import { randomUUID } from 'node:crypto';
import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Tx } from '../db/transaction.ts';
import type { NewWebhookEvent } from './events.ts';
import { signalWebhookEvents } from './signal.ts';

// Emitting webhook events (docs/product/webhooks.md#events). An event is written in the transaction
// of what it announces, so it exists exactly when that does: a rolled-back approval sends nothing, a
// committed one is delivered even if the process stops right after. The worker (worker.ts) gives
// each event its deliveries, one per endpoint subscribed to its type, and sends them.
//
// Emitting is one INSERT … SELECT that writes nothing when no enabled endpoint subscribes to the
// event's type: a programme without webhooks pays one statement per event and keeps no rows. The
// statement waits for no lock: emitters never hold up one another, whatever else their transaction
// locks. The order deliveries keep is given when the worker dispatches the events, in the order
// their transactions made them visible (docs/product/webhooks.md#ordering).

/** What emitting needs of a transaction: its raw SQL and, when it has one, its after-commit hook. */
export type WebhookTx = Pick<Tx, 'query' | 'afterCommit'>;

const INSERT_EVENTS_SQL = `
INSERT INTO webhook_events (id, type, affiliate_id, data, created_at)
SELECT (x.event->>'id')::uuid, x.event->>'type', x.event->>'affiliateId', x.event->'data', $2::timestamptz
FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(event, n)
WHERE EXISTS (
  SELECT 1 FROM webhook_endpoints w WHERE w.enabled AND (x.event->>'type') = ANY (w.event_types)
)
ORDER BY x.n
RETURNING id::text AS id`;

/**
 * Writes `events` (in this order) in the caller's transaction, at `at` (the app's clock); answers the
 * ids of those written — none when no enabled endpoint subscribes to their types. Once the transaction
 * commits, this process's webhook worker is woken.
 */
export async function enqueueWebhookEvents(
  tx: WebhookTx,
  events: readonly NewWebhookEvent[],
  at: Date,
): Promise<string[]> {
  if (events.length === 0) return [];
  const withIds = events.map((event) => ({ id: randomUUID(), ...event }));
  const { rows } = await tx.query<{ id: string }>(INSERT_EVENTS_SQL, [JSON.stringify(withIds), at.toISOString()]);
  if (rows.length > 0) tx.afterCommit?.(signalWebhookEvents);
  return rows.map((row) => row.id);
}

/** `enqueueWebhookEvents` for one event; answers its id, or null when no endpoint subscribes to it. */
export async function enqueueWebhookEvent(tx: WebhookTx, event: NewWebhookEvent, at: Date): Promise<string | null> {
  const [id] = await enqueueWebhookEvents(tx, [event], at);
  return id ?? null;
}

/**
 * `webhook_events` as the auth library's adapter sees it, so that signup emits its events in the
 * library's transaction (features/affiliates/signup.ts), like its audit entry and welcome e-mail. The
 * adapter writes whatever it is given: these events are written whether an endpoint subscribes or
 * not (signups are few), and the worker dispatches them to none.
 */
export const webhookEventAuthTable = pgTable('webhook_events', {
  id: uuid('id').primaryKey(),
  type: text('type').notNull(),
  affiliateId: text('affiliate_id'),
  data: jsonb('data').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/** The adapter model of `webhookEventAuthTable` (declared with the auth library's other models). */
export const WEBHOOK_EVENT_AUTH_MODEL = {
  webhookEvent: {
    fields: {
      type: { type: 'string', required: true },
      affiliateId: { type: 'string', required: false },
      data: { type: 'json', required: true },
      createdAt: { type: 'date', required: true },
    },
  },
} as const;

/** The part of the auth library's adapter that writes a row. */
interface AuthAdapter {
  create<T extends Record<string, unknown>, R = T>(input: {
    model: string;
    data: T;
    forceAllowId?: boolean;
  }): Promise<R>;
}

/**
 * Writes `events` through the auth library's adapter (in its transaction). Call `signalWebhookEvents`
 * once that transaction has committed.
 */
export async function enqueueWebhookEventsThroughAuth(
  adapter: AuthAdapter,
  events: readonly NewWebhookEvent[],
  at: Date,
): Promise<void> {
  for (const event of events) {
    await adapter.create({
      model: 'webhookEvent',
      forceAllowId: true,
      data: { id: randomUUID(), type: event.type, affiliateId: event.affiliateId, data: event.data, createdAt: at },
    });
  }
}
