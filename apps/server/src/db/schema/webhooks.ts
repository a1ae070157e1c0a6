import { bigint, boolean, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// Outgoing webhooks (migrations/0008_webhooks.sql is the source of truth; test/db-schema.test.ts
// holds both in step): endpoints, events, one delivery per event and endpoint, and their attempts.

const time = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: uuid('id').primaryKey().defaultRandom(),
  url: text('url').notNull(),
  description: text('description'),
  eventTypes: text('event_types').array().notNull(),
  enabled: boolean('enabled').notNull().default(true),
  secretSealed: text('secret_sealed').notNull(),
  previousSecretSealed: text('previous_secret_sealed'),
  previousSecretExpiresAt: time('previous_secret_expires_at'),
  secretRotatedAt: time('secret_rotated_at'),
  createdBy: text('created_by'),
  createdAt: time('created_at').notNull().defaultNow(),
  updatedAt: time('updated_at').notNull().defaultNow(),
});

export const webhookEvents = pgTable('webhook_events', {
  id: uuid('id').primaryKey(),
  seq: bigint('seq', { mode: 'number' }).notNull().unique().generatedAlwaysAsIdentity(),
  type: text('type').notNull(),
  affiliateId: text('affiliate_id'),
  data: jsonb('data').notNull(),
  createdAt: time('created_at').notNull(),
  dispatchedAt: time('dispatched_at'),
});

export const webhookDeliveries = pgTable('webhook_deliveries', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  eventId: uuid('event_id')
    .notNull()
    .references(() => webhookEvents.id, { onDelete: 'cascade' }),
  endpointId: uuid('endpoint_id')
    .notNull()
    .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
  affiliateId: text('affiliate_id'),
  status: text('status').$type<'pending' | 'delivered' | 'failed'>().notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  queuedAtAttempt: integer('queued_at_attempt').notNull().default(0),
  nextAttemptAt: time('next_attempt_at').notNull(),
  lastAttemptAt: time('last_attempt_at'),
  lastStatusCode: integer('last_status_code'),
  lastError: text('last_error'),
  deliveredAt: time('delivered_at'),
  createdAt: time('created_at').notNull(),
});

export const webhookDeliveryAttempts = pgTable('webhook_delivery_attempts', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  deliveryId: bigint('delivery_id', { mode: 'number' })
    .notNull()
    .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
  attempt: integer('attempt').notNull(),
  startedAt: time('started_at').notNull(),
  durationMs: integer('duration_ms').notNull(),
  statusCode: integer('status_code'),
  error: text('error'),
});
