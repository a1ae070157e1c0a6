import * as z from 'zod/mini';
import { isPayday } from '../admin/payday.ts';
import type { PaymentMethodType } from '../affiliate/payment-method.ts';
import { PAYOUT_STATUSES, type PayoutStatus } from '../affiliate/stats.ts';
import { storableText } from '../schemas/storable-text.ts';

// The operator's payout functions (BRIEF §5.2, §5.10, §6): run a month's payouts, export them for
// PayPal or SEPA, and move them through their lifecycle. `access: 'admin'`.

export const SEPA_PAIN_VERSIONS = ['pain.001.001.09', 'pain.001.001.03'] as const;
export type SepaPainVersion = (typeof SEPA_PAIN_VERSIONS)[number];

export const PAYOUT_EXPORT_KINDS = ['paypal', 'sepa'] as const;
export type PayoutExportKind = (typeof PAYOUT_EXPORT_KINDS)[number];

/**
 * USD→EUR rates outside this range are refused: the rate multiplies every amount of the file, so
 * a misplaced decimal point ("9.231" for "0.9231") must not reach the bank.
 */
export const EXCHANGE_RATE_BOUNDS = { min: 0.5, max: 2 } as const;
/** Decimal places the rate is stored with (payouts.exchange_rate numeric(12, 6)). */
export const EXCHANGE_RATE_DECIMALS = 6;
/** Payouts one lifecycle call may change at once. */
export const MARK_PAYOUTS_MAX = 1000;
/** The operator's bank or PayPal reference, and the failure reason, as stored. */
export const PAYOUT_REFERENCE_MAX = 140;
export const PAYOUT_REASON_MAX = 500;

export interface AdminPayout {
  id: string;
  affiliateId: string;
  /** "First Last" (null once the account was deleted and purged). */
  affiliateName: string | null;
  affiliateEmail: string | null;
  periodStart: string;
  periodEnd: string;
  /** USD cents. */
  amountCents: number;
  currency: string;
  method: PaymentMethodType;
  status: PayoutStatus;
  /** The payday, YYYY-MM-DD. */
  scheduledFor: string;
  /** USD→EUR rate used for a SEPA payout, as a decimal string (e.g. "0.923100"), once exported. */
  exchangeRate: string | null;
  /** Amount in the paid currency (EUR cents for SEPA), once exported. */
  amountPaidCents: number | null;
  paidCurrency: string | null;
  reference: string | null;
  failureReason: string | null;
  sentAt: string | null;
  paidAt: string | null;
  failedAt: string | null;
  /**
   * The payout's id as the export files carry it (PayPal's customer id, SEPA's EndToEndId): 25
   * letters and digits, since the uuid is longer than PayPal allows. Bank and PayPal reports name it.
   */
  transferReference: string;
  /** The export the payout was last included in, if any. */
  exportId: string | null;
}

export interface PayoutRunResult {
  /** The payday run, YYYY-MM-DD (a 15th). */
  payday: string;
  /** Payouts created by this run (0 when every payable affiliate already had one). */
  created: number;
  /** Sum of the payouts created, USD cents. */
  totalCents: number;
  /** Affiliates with an approved balance below the minimum (rolled over). */
  belowMinimum: number;
  /** Affiliates with a payable balance but no payment method (rolled over). */
  withoutPaymentMethod: number;
  /**
   * The payday had already been run to the end: nothing was done, and the figures are those the
   * finished run recorded (`created` and `totalCents` are then 0).
   */
  alreadyDone: boolean;
  /** Every live (not failed) payout of the payday, this run's and earlier attempts'. */
  payoutCount: number;
  /** Their sum, USD cents. */
  payoutTotalCents: number;
}

export interface PayoutExportFile {
  exportId: string;
  fileName: string;
  contentType: string;
  /** The file itself (CSV or XML text). */
  content: string;
  payoutCount: number;
  /** Control sum in the file's currency, cents. */
  totalCents: number;
  currency: string;
  /** The file's unique message id (SEPA MsgId; for PayPal, the batch's own id). */
  messageId: string;
  /** 'paypal-payouts-csv', 'pain.001.001.09' or 'pain.001.001.03'. */
  format: string;
  /** USD→EUR rate of a SEPA file, as stored (e.g. "0.923100"); null for PayPal. */
  exchangeRate: string | null;
  /**
   * False when every scheduled payout asked for was already exported with the same settings: the
   * file answered is that export again (same message id: a bank refuses a second upload of it).
   */
  created: boolean;
  /**
   * Scheduled payouts of the payday and method left out of this file (a PayPal file holds at most
   * 5,000 payments): export again for the next file.
   */
  remaining: number;
}

export interface PayoutFunctions {
  adminListPayouts: {
    request: { status?: PayoutStatus; payday?: string };
    response: { payouts: AdminPayout[] };
  };
  /** Runs the payout job for the payday (YYYY-MM-15); safe to repeat. `aborted` while a run is in progress. */
  adminRunPayouts: { request: { payday: string }; response: PayoutRunResult };
  /**
   * Builds the export of the payday's scheduled payouts: PayPal Payouts CSV (USD) or SEPA pain.001
   * (EUR at `exchangeRate` USD→EUR, stored on each payout). `failed-precondition` when none.
   */
  adminExportPayouts: {
    request: { kind: 'paypal' | 'sepa'; payday: string; exchangeRate?: string; painVersion?: SepaPainVersion };
    response: PayoutExportFile;
  };
  /** scheduled → sent → paid, or → failed (the amounts return to the balance). */
  adminMarkPayouts: {
    request: { payoutIds: string[]; status: 'sent' | 'paid' | 'failed'; reference?: string; reason?: string };
    response: { updated: number };
  };
}

// Request schemas: the server validates with them, the console may check its form with them.

/** A payday: YYYY-MM-15 (BRIEF §5.2). */
export const paydaySchema = z.string().check(z.refine(isPayday));

/** Whether `rate` is a USD→EUR rate the exports accept: a plain decimal within EXCHANGE_RATE_BOUNDS. */
export function isAcceptableExchangeRate(rate: string): boolean {
  if (!new RegExp(`^\\d{1,6}(\\.\\d{1,${EXCHANGE_RATE_DECIMALS}})?$`).test(rate)) return false;
  const value = Number(rate);
  return value >= EXCHANGE_RATE_BOUNDS.min && value <= EXCHANGE_RATE_BOUNDS.max;
}

export const exchangeRateSchema = z.string().check(z.trim(), z.refine(isAcceptableExchangeRate));

export const adminListPayoutsSchema = z.strictObject({
  status: z.optional(z.enum(PAYOUT_STATUSES)),
  payday: z.optional(paydaySchema),
});

export const adminRunPayoutsSchema = z.strictObject({ payday: paydaySchema });

export const adminExportPayoutsSchema = z.strictObject({
  kind: z.enum(PAYOUT_EXPORT_KINDS),
  payday: paydaySchema,
  /** Required for SEPA, refused for PayPal (PayPal pays USD). */
  exchangeRate: z.optional(exchangeRateSchema),
  painVersion: z.optional(z.enum(SEPA_PAIN_VERSIONS)),
});

export const adminMarkPayoutsSchema = z.strictObject({
  payoutIds: z.array(z.uuid()).check(z.minLength(1), z.maxLength(MARK_PAYOUTS_MAX)),
  status: z.enum(['sent', 'paid', 'failed']),
  reference: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(PAYOUT_REFERENCE_MAX), storableText())),
  /** Required when the status is `failed`: it is stored and shown to the operator. */
  reason: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(PAYOUT_REASON_MAX), storableText())),
});
