import type { PaymentMethodType } from '../affiliate/payment-method.ts';
import type { PayoutStatus } from '../affiliate/stats.ts';

// The operator's payout functions (BRIEF §5.2, §5.10, §6): run a month's payouts, export them for
// PayPal or SEPA, and move them through their lifecycle. `access: 'admin'`.

export const SEPA_PAIN_VERSIONS = ['pain.001.001.09', 'pain.001.001.03'] as const;
export type SepaPainVersion = (typeof SEPA_PAIN_VERSIONS)[number];

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
