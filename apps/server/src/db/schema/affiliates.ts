import { bigint, boolean, date, jsonb, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { PaymentMethodType } from '@skanova/shared/affiliate/payment-method';
import type { AffiliateStatus } from '@skanova/shared/affiliate/schemas';
import type { PayoutStatus } from '@skanova/shared/affiliate/stats';
import { authUsers } from './auth.ts';
import { referralCodes } from './landing.ts';

// Affiliate profiles, payment methods, conversions, adjustments, payouts (migrations/0002_affiliates.sql).
// `affiliates` and `paymentMethods` are also written by the auth library's adapter during signup, so
// their property names are the model fields declared in features/auth/auth.ts.

const time = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const affiliates = pgTable('affiliates', {
  id: text('id').primaryKey(),
  userId: text('user_id').references(() => authUsers.id, { onDelete: 'set null' }),
  firstName: text('first_name'),
  lastName: text('last_name'),
  phone: text('phone'),
  companyName: text('company_name'),
  website: text('website'),
  status: text('status').$type<AffiliateStatus>().notNull().default('active'),
  language: text('language').notNull().default('fr'),
  termsAcceptedAt: time('terms_accepted_at'),
  notifyConversions: boolean('notify_conversions').notNull().default(true),
  notifyPayments: boolean('notify_payments').notNull().default(true),
  notifyNews: boolean('notify_news').notNull().default(true),
  deletedAt: time('deleted_at'),
  lastActiveAt: time('last_active_at'),
  inactivityWarnedAt: time('inactivity_warned_at'),
  personalDataPurgedAt: time('personal_data_purged_at'),
  createdAt: time('created_at').notNull().defaultNow(),
  updatedAt: time('updated_at').notNull().defaultNow(),
  /** The partner group whose reward rule prices the affiliate's commissions (schema/ledger.ts). */
  groupId: text('group_id').notNull().default('default'),
  /** Keyed hashes of the signup e-mail, IP and browser, for the fraud review (migrations/0012_review.sql). */
  emailHash: text('email_hash'),
  signupIpHash: text('signup_ip_hash'),
  signupDeviceHash: text('signup_device_hash'),
});

export const paymentMethods = pgTable('payment_methods', {
  id: text('id').primaryKey(),
  affiliateId: text('affiliate_id')
    .notNull()
    .unique()
    .references(() => affiliates.id, { onDelete: 'cascade' }),
  type: text('type').$type<PaymentMethodType>().notNull(),
  paypalEmail: text('paypal_email'),
  bankName: text('bank_name'),
  accountHolder: text('account_holder'),
  ibanEncrypted: text('iban_encrypted'),
  bicEncrypted: text('bic_encrypted'),
  ibanLast4: text('iban_last4'),
  createdAt: time('created_at').notNull().defaultNow(),
  updatedAt: time('updated_at').notNull().defaultNow(),
  /** Keyed hash of the payout account (PayPal address or IBAN), to find one account on several affiliates. */
  payoutAccountHash: text('payout_account_hash'),
});

export const payouts = pgTable('payouts', {
  id: uuid('id').primaryKey().defaultRandom(),
  affiliateId: text('affiliate_id')
    .notNull()
    .references(() => affiliates.id),
  periodStart: date('period_start', { mode: 'string' }).notNull(),
  periodEnd: date('period_end', { mode: 'string' }).notNull(),
  amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  currency: text('currency').notNull().default('USD'),
  method: text('method').$type<PaymentMethodType>().notNull(),
  methodSnapshot: jsonb('method_snapshot').notNull(),
  exchangeRate: numeric('exchange_rate', { precision: 12, scale: 6 }),
  status: text('status').$type<PayoutStatus>().notNull().default('scheduled'),
  reference: text('reference'),
  scheduledFor: date('scheduled_for', { mode: 'string' }).notNull(),
  sentAt: time('sent_at'),
  paidAt: time('paid_at'),
  failedAt: time('failed_at'),
  failureReason: text('failure_reason'),
  amountPaidCents: bigint('amount_paid_cents', { mode: 'number' }),
  paidCurrency: text('paid_currency'),
  exportId: uuid('export_id'),
  createdAt: time('created_at').notNull().defaultNow(),
});

export const conversions = pgTable('conversions', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  sourceEventId: text('source_event_id').notNull().unique(),
  appUserId: text('app_user_id').notNull(),
  affiliateId: text('affiliate_id')
    .notNull()
    .references(() => affiliates.id),
  referralCodeId: bigint('referral_code_id', { mode: 'number' }).references(() => referralCodes.id),
  store: text('store'),
  productId: text('product_id'),
  occurredAt: time('occurred_at').notNull(),
  commissionCents: bigint('commission_cents', { mode: 'number' }).notNull(),
  rateTier: text('rate_tier').notNull(),
  status: text('status').notNull().default('pending'),
  approvedAt: time('approved_at'),
  reversedAt: time('reversed_at'),
  reversalReason: text('reversal_reason'),
  payoutId: uuid('payout_id').references(() => payouts.id),
  installId: bigint('install_id', { mode: 'number' }),
  priceCents: bigint('price_cents', { mode: 'number' }),
  priceCurrency: text('price_currency'),
  refundedAt: time('refunded_at'),
  transactionId: text('transaction_id'),
  originalTransactionId: text('original_transaction_id'),
  createdAt: time('created_at').notNull().defaultNow(),
  /** The reward rule version that priced the commission (filled by the database when omitted). */
  ruleId: bigint('rule_id', { mode: 'number' }).notNull(),
  /** What the commission was priced from (domain/reward-rules.ts). */
  pricing: jsonb('pricing'),
  /** When the hold ends (occurred_at + the rule's hold; filled by the database when omitted). */
  approvableAt: time('approvable_at').notNull(),
  /** `first-purchase` (the install's conversion, counted as qualified) or `renewal` (a recurring rule's commission). */
  kind: text('kind').$type<'first-purchase' | 'renewal'>().notNull().default('first-purchase'),
  /** A renewal's first purchase. */
  firstConversionId: bigint('first_conversion_id', { mode: 'number' }),
  /** USD cents after the store's commission, when the event gave the price. */
  proceedsCents: bigint('proceeds_cents', { mode: 'number' }),
  /** The referral code's campaign rate that priced the commission instead of the group's rule. */
  campaignRateId: bigint('campaign_rate_id', { mode: 'number' }),
  /** Held by a review case: out of every payout until an operator decides (docs/product/review.md#holding). */
  reviewHold: boolean('review_hold').notNull().default(false),
  /** The review case that held the commission (kept after its decision). */
  reviewCaseId: bigint('review_case_id', { mode: 'number' }),
  /** When the commission was last held or released by a review. */
  reviewChangedAt: time('review_changed_at'),
});

export const commissionAdjustments = pgTable('commission_adjustments', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  affiliateId: text('affiliate_id')
    .notNull()
    .references(() => affiliates.id),
  conversionId: bigint('conversion_id', { mode: 'number' }).references(() => conversions.id),
  amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  reason: text('reason').notNull(),
  payoutId: uuid('payout_id').references(() => payouts.id),
  createdAt: time('created_at').notNull().defaultNow(),
});
