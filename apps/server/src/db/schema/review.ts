import { bigint, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { ReviewAction, ReviewCaseStatus, ReviewSignalKind } from '@skanova/shared/admin/review';

// The fraud review (migrations/0012_review.sql; docs/product/review.md): each group's policy per
// signal, the cases operators decide, and the signals that opened them.

const time = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const reviewPolicies = pgTable(
  'review_policies',
  {
    groupId: text('group_id').notNull(),
    signal: text('signal').$type<ReviewSignalKind>().notNull(),
    action: text('action').$type<ReviewAction>().notNull(),
    updatedBy: text('updated_by'),
    updatedAt: time('updated_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.groupId, table.signal] })],
);

export const reviewCases = pgTable('review_cases', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  affiliateId: text('affiliate_id').notNull(),
  status: text('status').$type<ReviewCaseStatus>().notNull().default('open'),
  openedAt: time('opened_at').notNull(),
  decidedAt: time('decided_at'),
  decidedBy: text('decided_by'),
  reason: text('reason'),
});

export const reviewSignals = pgTable('review_signals', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  caseId: bigint('case_id', { mode: 'number' }).notNull(),
  affiliateId: text('affiliate_id').notNull(),
  kind: text('kind').$type<ReviewSignalKind>().notNull(),
  action: text('action').$type<ReviewAction>().notNull(),
  evidence: jsonb('evidence').$type<Record<string, unknown>>().notNull(),
  installId: bigint('install_id', { mode: 'number' }),
  dedupeKey: text('dedupe_key').notNull(),
  detectedAt: time('detected_at').notNull(),
});
