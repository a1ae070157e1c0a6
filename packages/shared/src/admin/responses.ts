import type { PaymentMethodType } from '../affiliate/payment-method.ts';
import type { AffiliateStats, PayoutSummary } from '../affiliate/stats.ts';
import type { Language } from '../site/constants.ts';
import type { CommissionWhy } from '../rewards/functions.ts';
import type { ContactSubject } from '../support/schemas.ts';
import type { AffiliateStatus } from '../affiliate/schemas.ts';
import type { ConversionStatus, TicketStatus } from './schemas.ts';
import type { VitalName, VitalRating } from './vitals.ts';

// Answers of the operator console's functions (docs/product/routes-and-screens.md#operator-console). Money in integer cents (USD), times
// as ISO 8601 UTC instants, days as YYYY-MM-DD.

export interface AdminPage<T> {
  items: T[];
  /** Rows matching the filters, every page together. */
  total: number;
  page: number;
  pageSize: number;
}

/** An affiliate as the list shows it. Names and e-mail are null once the account was deleted. */
export interface AdminAffiliateSummary {
  id: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  companyName: string | null;
  status: AffiliateStatus;
  /** The sign-in account is banned: rejected at login, its links stop earning. */
  disabled: boolean;
  deleted: boolean;
  createdAt: string;
  codes: string[];
  qualifiedConversions: number;
  /** Non-reversed commissions plus adjustments. */
  earningsCents: number;
  /** Not yet in a sent or paid payout (pending commissions included). */
  unpaidCents: number;
}

export interface AdminAffiliateProfile {
  id: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  companyName: string | null;
  website: string | null;
  language: Language;
  status: AffiliateStatus;
  disabled: boolean;
  /** Why the account was disabled (the operator's reason), while it is. */
  disabledReason: string | null;
  deleted: boolean;
  paymentMethod: PaymentMethodType | null;
  /** The partner group whose rule prices the affiliate's events (docs/product/money.md#partner-groups-and-reward-rules). */
  groupId: string;
  groupName: string;
  createdAt: string;
  termsAcceptedAt: string | null;
  lastActiveAt: string | null;
}

export interface AdminAffiliateDetail {
  affiliate: AdminAffiliateProfile;
  stats: AffiliateStats;
  payouts: PayoutSummary[];
}

export interface AdminAffiliateStatusResult {
  affiliateId: string;
  status: AffiliateStatus;
  disabled: boolean;
}

export interface AdminConversion {
  id: string;
  affiliateId: string;
  affiliateName: string | null;
  affiliateEmail: string | null;
  code: string | null;
  store: string | null;
  productId: string | null;
  occurredAt: string;
  commissionCents: number;
  /** `standard` or `premium` on a flat rule's first or later step, `percentage`, or `campaign` (a code's own rate). */
  rateTier: 'standard' | 'premium' | 'percentage' | 'campaign';
  /** Why this amount: first purchase or renewal, the rule version and group, the pricing inputs. */
  why: CommissionWhy;
  status: ConversionStatus;
  approvedAt: string | null;
  reversedAt: string | null;
  reversalReason: string | null;
  refundedAt: string | null;
  payoutId: string | null;
}

export interface AdminTicket {
  id: string;
  name: string;
  email: string;
  subject: ContactSubject;
  message: string;
  language: Language;
  status: TicketStatus;
  createdAt: string;
  handledAt: string | null;
}

export interface AdminWebVital {
  page: string;
  name: VitalName;
  /** 75th percentile (continuous) of the period's samples: ms, or no unit for CLS. */
  p75: number;
  samples: number;
  rating: VitalRating;
}

export interface AdminWebVitals {
  days: number;
  /** Start of the period (now − days). */
  since: string;
  vitals: AdminWebVital[];
}

export interface AdminAuditEntry {
  id: string;
  /** A user id, 'system', or null (anonymous). */
  actor: string | null;
  /** The actor's e-mail while the account exists. */
  actorEmail: string | null;
  action: string;
  subject: string | null;
  details: unknown;
  createdAt: string;
  /**
   * The affiliate the entry is about (its subject, or the `affiliateId` of its details), with their
   * name and e-mail while the account exists; null for an entry about no affiliate.
   */
  affiliate: { id: string; name: string | null; email: string | null } | null;
}

/**
 * What reversing did: `reversed` (not yet in a payout: it stops counting), `clawed-back` (already
 * in a payout: a deduction from the next one), or `already-reversed` (nothing left to do).
 */
export type ConversionReversalOutcome = 'reversed' | 'clawed-back' | 'already-reversed';

export interface AdminConversionReversal {
  conversionId: string;
  outcome: ConversionReversalOutcome;
}

/** Months of activity the overview's trend covers: the current UTC month and the eleven before it. */
export const ADMIN_OVERVIEW_MONTHS = 12;

/** How many, and how much (USD cents). */
export interface AdminCountAndCents {
  count: number;
  cents: number;
}

/** One UTC month of the programme's activity. */
export interface AdminMonthActivity {
  /** YYYY-MM (UTC). */
  month: string;
  /** Counted clicks (one per code per visitor per hour), by their hour's month. */
  clicks: number;
  /** Installs attributed to an affiliate, by the month of the app's first launch. */
  installs: number;
  /** Qualified (not reversed) conversions, by the month of the purchase. */
  conversions: number;
}

/**
 * The operators' first screen: the programme at a glance, what the next payday will pay, a year of
 * activity, and what waits for an operator. Counts are of every time unless said otherwise.
 */
export interface AdminOverview {
  /** The server's clock when the figures were read (ISO 8601 UTC). */
  asOf: string;
  /**
   * Not deleted and not disabled, by the application's status: the same accounts as the affiliates
   * list filtered by "active" or "pending".
   */
  affiliates: { active: number; pending: number };
  /** Counted clicks, attributed installs and qualified conversions (as in AdminMonthActivity). */
  totals: { clicks: number; installs: number; conversions: number };
  /** Commissions by their conversion's status: pending (30-day hold), approved (payable), paid. */
  commissions: { pending: AdminCountAndCents; approved: AdminCountAndCents; paid: AdminCountAndCents };
  /**
   * What the next payday pays as things stand, by the payout run's own rules: each affiliate's
   * balance approved before the cut-off (commissions, adjustments and deductions no payout holds),
   * when it reaches the minimum and a payment method is on file; deleted accounts are not paid.
   */
  nextPayday: {
    /** YYYY-MM-15. */
    date: string;
    /** 00:00 UTC on the 1st of the payday's month: what was approved before it is paid. */
    cutoff: string;
    /** Payouts the run would make (one per affiliate). */
    payouts: number;
    /** Their sum, USD cents. */
    cents: number;
  };
  /** ADMIN_OVERVIEW_MONTHS months, oldest first, the current month last; months without activity as zeros. */
  months: AdminMonthActivity[];
  /** What waits for an operator, each handled in a tab of the console. */
  needsAction: {
    /** Pending applications (the affiliates list filtered by "pending"). */
    pendingApplications: number;
    /**
     * Failed payouts of the latest payday (the one the payouts tab opens on): their amounts go back to
     * the balances and are paid again on the next payday, so the payment method needs a look first.
     */
    failedPayouts: { count: number; payday: string };
    /** Support tickets not yet marked handled. */
    openTickets: number;
  };
}
