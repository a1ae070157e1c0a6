import { bigint, boolean, integer, jsonb, pgTable, real, text, timestamp } from 'drizzle-orm/pg-core';

// The landing page's tables: the referral codes its links carry and the visits it records
// (migrations/*.sql are the source of truth; keep both in step).

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const referralCodes = pgTable('referral_codes', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  code: text('code').notNull().unique(),
  affiliateId: text('affiliate_id').notNull(),
  description: text('description'),
  createdAt: createdAt(),
});

/**
 * The landing page's visits. In the code a recorded visit is a visit (the landing feature's visit
 * writer); the table keeps the SQL name `clicks`, as do `click_counts` and the totals below, because a
 * counted click is the programme's statistic (docs/product/attribution.md#visits-and-counted-clicks)
 * and renaming tables would take a migration for the same rows (ADR 024).
 */
export const clicks = pgTable('clicks', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  trackingId: text('tracking_id').notNull().unique(),
  type: text('type').notNull(),
  code: text('code'),
  referralCodeId: bigint('referral_code_id', { mode: 'number' }),
  sessionId: text('session_id'),
  visitorKey: text('visitor_key'),
  ipHash: text('ip_hash'),
  userAgent: text('user_agent'),
  language: text('language'),
  timezone: text('timezone'),
  screenResolution: text('screen_resolution'),
  platform: text('platform'),
  colorDepth: integer('color_depth'),
  deviceMemory: real('device_memory'),
  hardwareConcurrency: integer('hardware_concurrency'),
  clientTimestamp: timestamp('client_timestamp', { withTimezone: true, mode: 'date' }),
  referrer: text('referrer'),
  path: text('path'),
  query: jsonb('query'),
  isBot: boolean('is_bot').notNull().default(false),
  counted: boolean('counted').notNull().default(false),
  personalDataClearedAt: timestamp('personal_data_cleared_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
  /** Made from the signed-in browser of the affiliate who owns the code (docs/product/review.md#signals). */
  selfVisit: boolean('self_visit').notNull().default(false),
});

export const clickCounts = pgTable('click_counts', {
  referralCodeId: bigint('referral_code_id', { mode: 'number' }).notNull(),
  visitorKey: text('visitor_key').notNull(),
  hourBucket: timestamp('hour_bucket', { withTimezone: true, mode: 'date' }).notNull(),
  clickId: bigint('click_id', { mode: 'number' }).notNull(),
});

/** Each code's rows in click_counts, kept by triggers (migrations/0005_dashboard_reads.sql). */
export const referralCodeClickTotals = pgTable('referral_code_click_totals', {
  referralCodeId: bigint('referral_code_id', { mode: 'number' }).primaryKey(),
  countedClicks: bigint('counted_clicks', { mode: 'number' }).notNull(),
});
