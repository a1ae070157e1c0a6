import { bigint, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';

// Partner groups, their versioned reward rules and the money ledger (migrations/0007_ledger.sql;
// docs/product/money.md#the-ledger). The ledger is written by the database's triggers, never by the code.

const time = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const partnerGroups = pgTable('partner_groups', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdBy: text('created_by'),
  createdAt: time('created_at').notNull().defaultNow(),
  /** Archived groups take no new affiliates and no new rule versions (migrations/0011_partner_group_archive.sql). */
  archivedAt: time('archived_at'),
  archivedBy: text('archived_by'),
});

/** A flat rule's step: from this many qualified conversions, this commission. */
export interface RewardTier {
  from: number;
  cents: number;
}

export const rewardRules = pgTable(
  'reward_rules',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    groupId: text('group_id')
      .notNull()
      .references(() => partnerGroups.id),
    version: integer('version').notNull(),
    effectiveFrom: time('effective_from').notNull(),
    kind: text('kind').$type<'flat' | 'percentage'>().notNull(),
    tiers: jsonb('tiers').$type<RewardTier[]>(),
    percentBasisPoints: integer('percent_basis_points'),
    recurringMonths: integer('recurring_months'),
    holdDays: integer('hold_days').notNull(),
    minimumPayoutCents: bigint('minimum_payout_cents', { mode: 'number' }).notNull(),
    createdBy: text('created_by'),
    createdAt: time('created_at').notNull().defaultNow(),
  },
  (table) => [unique().on(table.groupId, table.version)],
);

export type LedgerAccount = 'programme' | 'pending' | 'payable' | 'held' | 'in-payout' | 'paid';

export type LedgerEntryKind =
  | 'earned'
  | 'approved'
  | 'scheduled'
  | 'paid'
  | 'payout-failed'
  | 'released'
  | 'reversed'
  | 'adjusted'
  | 'clawed-back'
  | 'held'
  | 'released-from-review';

export const ledgerEntries = pgTable('ledger_entries', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  affiliateId: text('affiliate_id').notNull(),
  kind: text('kind').$type<LedgerEntryKind>().notNull(),
  fromAccount: text('from_account').$type<LedgerAccount>().notNull(),
  toAccount: text('to_account').$type<LedgerAccount>().notNull(),
  amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  conversionId: bigint('conversion_id', { mode: 'number' }),
  adjustmentId: bigint('adjustment_id', { mode: 'number' }),
  payoutId: uuid('payout_id'),
  payableFrom: time('payable_from'),
  effectiveAt: time('effective_at').notNull(),
  recordedAt: time('recorded_at').notNull().defaultNow(),
});

/** A referral code's own rate for a date range (migrations/0010_campaign_rates.sql). */
export const campaignRates = pgTable('campaign_rates', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  referralCodeId: bigint('referral_code_id', { mode: 'number' }).notNull(),
  startsAt: time('starts_at').notNull(),
  endsAt: time('ends_at').notNull(),
  kind: text('kind').$type<'flat' | 'percentage'>().notNull(),
  amountCents: bigint('amount_cents', { mode: 'number' }),
  percentBasisPoints: integer('percent_basis_points'),
  createdBy: text('created_by'),
  createdAt: time('created_at').notNull().defaultNow(),
});
