import {
  bigint,
  date,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type { PayoutExportKind } from '@skanova/shared/payouts/schemas';
import { affiliates, conversions } from './affiliates.ts';

// The programme at work (migrations/0003_programme.sql): installs and their identities, RevenueCat
// events, payout exports, job runs, the e-mail outbox. The SQL files are the source of truth; test/db-schema.test.ts holds
// both in step.

const time = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const installs = pgTable('installs', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  appUserId: text('app_user_id').notNull().unique(),
  platform: text('platform').notNull(),
  clickId: bigint('click_id', { mode: 'number' }),
  referralCodeId: bigint('referral_code_id', { mode: 'number' }),
  affiliateId: text('affiliate_id').references(() => affiliates.id),
  method: text('method'),
  confidence: real('confidence'),
  ipHash: text('ip_hash'),
  device: jsonb('device'),
  attributedAt: time('attributed_at'),
  personalDataClearedAt: time('personal_data_cleared_at'),
  createdAt: time('created_at').notNull().defaultNow(),
});

export const appUserAliases = pgTable('app_user_aliases', {
  alias: text('alias').primaryKey(),
  installId: bigint('install_id', { mode: 'number' })
    .notNull()
    .references(() => installs.id),
  createdAt: time('created_at').notNull().defaultNow(),
});

export const revenuecatEvents = pgTable('revenuecat_events', {
  eventId: text('event_id').primaryKey(),
  type: text('type').notNull(),
  appUserId: text('app_user_id'),
  environment: text('environment'),
  outcome: text('outcome').notNull(),
  conversionId: bigint('conversion_id', { mode: 'number' }).references(() => conversions.id),
  payload: jsonb('payload').notNull(),
  eventAt: time('event_at'),
  receivedAt: time('received_at').notNull().defaultNow(),
});

export const payoutExports = pgTable('payout_exports', {
  id: uuid('id').primaryKey().defaultRandom(),
  kind: text('kind').$type<PayoutExportKind>().notNull(),
  format: text('format').notNull(),
  messageId: text('message_id').notNull().unique(),
  payday: date('payday', { mode: 'string' }).notNull(),
  payoutCount: integer('payout_count').notNull(),
  controlSumCents: bigint('control_sum_cents', { mode: 'number' }).notNull(),
  currency: text('currency').notNull(),
  exchangeRate: numeric('exchange_rate', { precision: 12, scale: 6 }),
  fileName: text('file_name').notNull(),
  content: text('content').notNull(),
  createdBy: text('created_by'),
  createdAt: time('created_at').notNull().defaultNow(),
});

export const jobRuns = pgTable(
  'job_runs',
  {
    job: text('job').notNull(),
    runKey: text('run_key').notNull(),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(1),
    details: jsonb('details'),
    error: text('error'),
    startedAt: time('started_at').notNull().defaultNow(),
    finishedAt: time('finished_at'),
  },
  (table) => [primaryKey({ columns: [table.job, table.runKey] })],
);

export const emailOutbox = pgTable('email_outbox', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  kind: text('kind').notNull(),
  dedupeKey: text('dedupe_key').unique(),
  toAddress: text('to_address').notNull(),
  subject: text('subject').notNull(),
  textBody: text('text_body').notNull(),
  htmlBody: text('html_body'),
  replyTo: text('reply_to'),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: time('next_attempt_at').notNull().defaultNow(),
  lastError: text('last_error'),
  sentAt: time('sent_at'),
  gaveUpAt: time('gave_up_at'),
  createdAt: time('created_at').notNull().defaultNow(),
});
