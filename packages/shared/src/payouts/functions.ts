import type { PayoutCore } from '../affiliate/stats.ts';
import type {
  AdminExportLedgerRequest,
  AdminExportPayoutsRequest,
  AdminListPayoutsRequest,
  AdminMarkPayoutsRequest,
  AdminRunPayoutsRequest,
} from './schemas.ts';

// The operator's payout functions (docs/product/money.md#payment-timing, docs/product/money.md#payouts): run a month's payouts, export them for
// PayPal or SEPA, and move them through their lifecycle. `access: 'admin'`. Their inputs: schemas.ts.

export interface AdminPayout extends PayoutCore {
  affiliateId: string;
  /** "First Last" (null once the account was deleted and purged). */
  affiliateName: string | null;
  affiliateEmail: string | null;
  /** USD→EUR rate used for a SEPA payout, as a decimal string (e.g. "0.923100"), once exported. */
  exchangeRate: string | null;
  /** Amount in the paid currency (EUR cents for SEPA), once exported. */
  amountPaidCents: number | null;
  paidCurrency: string | null;
  reference: string | null;
  failureReason: string | null;
  sentAt: string | null;
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

/** One account of one affiliate whose ledger balance differs from the books (docs/product/money.md#the-ledger). */
export interface LedgerDifference {
  affiliateId: string;
  account: 'pending' | 'payable' | 'held' | 'in-payout' | 'paid';
  /** What the ledger's entries sum to, cents. */
  ledgerCents: number;
  /** What the rows (commissions and adjustments where they stand) or the payouts' amounts say, cents. */
  expectedCents: number;
  source: 'rows' | 'payouts';
}

export interface LedgerReconciliation {
  checkedAt: string;
  /** Empty when every affiliate's ledger reconciles to the cent. */
  differences: LedgerDifference[];
}

export interface LedgerExportFile {
  fileName: string;
  contentType: string;
  content: string;
  /** Lines after the header. */
  lines: number;
}

/** The accountant's files for a period (docs/product/money.md#ledger-export). */
export interface LedgerExport {
  /** One line per ledger entry. */
  entries: LedgerExportFile;
  /** One line per affiliate per month: movements by kind and closing balances. */
  summary: LedgerExportFile;
}

export interface PayoutFunctions {
  /** Checks every affiliate's ledger against the rows and the payouts; audit-logged. */
  adminReconcileLedger: { request: null; response: LedgerReconciliation };
  /** The ledger's entries and monthly summary for whole UTC months (at most 12). */
  adminExportLedger: { request: AdminExportLedgerRequest; response: LedgerExport };
  adminListPayouts: {
    request: AdminListPayoutsRequest;
    response: { payouts: AdminPayout[] };
  };
  /** Runs the payout job for the payday (YYYY-MM-15); safe to repeat. `aborted` while a run is in progress. */
  adminRunPayouts: { request: AdminRunPayoutsRequest; response: PayoutRunResult };
  /**
   * Builds the export of the payday's scheduled payouts: PayPal Payouts CSV (USD) or SEPA pain.001
   * (EUR at `exchangeRate` USD→EUR, stored on each payout). `failed-precondition` when none.
   */
  adminExportPayouts: {
    request: AdminExportPayoutsRequest;
    response: PayoutExportFile;
  };
  /** scheduled → sent → paid, or → failed (the amounts return to the balance). */
  adminMarkPayouts: {
    request: AdminMarkPayoutsRequest;
    response: { updated: number };
  };
}
