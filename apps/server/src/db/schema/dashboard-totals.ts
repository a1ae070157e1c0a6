import { bigint, date, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

// The dashboard's totals, kept by the database's triggers from the ledger and the conversions
// (migrations/0016_dashboard_totals.sql, docs/decisions/012-counted-click-totals.md); read by the
// statistics (features/affiliate/affiliate-stats.ts), never written by the code.

/** What each affiliate's ledger entries add to each account. */
export const affiliateLedgerTotals = pgTable('affiliate_ledger_totals', {
  affiliateId: text('affiliate_id').primaryKey(),
  pending: bigint('pending', { mode: 'number' }).notNull(),
  payable: bigint('payable', { mode: 'number' }).notNull(),
  held: bigint('held', { mode: 'number' }).notNull(),
  inPayout: bigint('in_payout', { mode: 'number' }).notNull(),
  paid: bigint('paid', { mode: 'number' }).notNull(),
});

/** What its entries with a `payable_from` add to `payable`, by that instant's UTC day. */
export const affiliatePayableDays = pgTable(
  'affiliate_payable_days',
  {
    affiliateId: text('affiliate_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    payable: bigint('payable', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.affiliateId, table.day] })],
);

/** Its qualified conversions per referral code (0: none). */
export const affiliateCodeConversionTotals = pgTable(
  'affiliate_code_conversion_totals',
  {
    affiliateId: text('affiliate_id').notNull(),
    referralCodeId: bigint('referral_code_id', { mode: 'number' }).notNull(),
    qualified: bigint('qualified', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.affiliateId, table.referralCodeId] })],
);

/** Its qualified conversions per UTC day of `occurred_at`. */
export const affiliateConversionDays = pgTable(
  'affiliate_conversion_days',
  {
    affiliateId: text('affiliate_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    qualified: bigint('qualified', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.affiliateId, table.day] })],
);
