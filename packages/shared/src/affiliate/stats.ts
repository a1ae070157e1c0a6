import type { PaymentMethodType } from './payment-method.ts';
import type { AffiliateStatus, NotificationPreferences } from './schemas.ts';

// Answers of the dashboard's server functions (docs/product/money.md#statistics formulas).
// Money is integer cents inside; the spec's dollar fields are given too (two decimals at the edge).

export interface ReferralCodeStats {
  code: string;
  /** The affiliate's label, or null (the page shows a dash). */
  description: string | null;
  clickCount: number;
  conversionCount: number;
  /** `${PUBLIC_URL}/download?ref=CODE` (docs/product/attribution.md#referral-link). */
  link: string;
  createdAt: string;
}

export interface AffiliateStats {
  /** Dollars (spec): non-reversed commissions + adjustments. */
  totalEarnings: number;
  totalEarningsCents: number;
  /** Dollars (spec): not yet in a sent or paid payout, pending included. */
  unpaidEarnings: number;
  unpaidEarningsCents: number;
  /** Qualified (non-reversed) conversions. */
  totalConversions: number;
  /** Counted clicks. */
  totalClicks: number;
  /** Qualified conversions ÷ counted clicks × 100, one decimal; 0 without clicks. */
  conversionRate: number;
  /** Qualified conversions in the last 30 days. */
  last30DaysCount: number;
  hasPremiumRate: boolean;
  /** min(100, qualified conversions). */
  progressToTier: number;
  /** Dollars per conversion now: 2 or 4. */
  currentCommissionRate: number;
  referralCodes: ReferralCodeStats[];
  /** Distinct visitors on the affiliate's links in the last 5 minutes (docs/product/attribution.md#active-visitors). */
  activeVisitors: number;
  /** The next payday and what is payable on it (approved before the cut-off, unpaid, ≥ minimum). */
  nextPayout: { date: string; payableCents: number; approvedUnpaidCents: number };
  /** Commissions under review (held by the fraud review): unpaid, in no payout until it ends. Never why. */
  underReviewCents: number;
  status: AffiliateStatus;
}

/** Pending commissions whose hold ends on one UTC day. */
export interface PendingDay {
  /** The UTC day their hold ends and they become payable (`approvable_at`), YYYY-MM-DD. */
  payableOn: string;
  /** The payday that pays them, if the balance then reaches the minimum, YYYY-MM-DD. */
  payday: string;
  cents: number;
  commissions: number;
}

/**
 * Why the next payday pays less than the unpaid earnings (docs/product/money.md#the-ledger): the unpaid
 * earnings split by where they stand. The parts add up to `unpaidCents`, read from the ledger in one
 * statement with the pending commissions' days.
 */
export interface UnpaidEarnings {
  unpaidCents: number;
  /** The next payday, YYYY-MM-DD, and its cut-off (commissions approved before it are paid then). */
  nextPayday: string;
  cutoff: string;
  /** The minimum payout of the affiliate's rule. */
  minimumCents: number;
  /** Payable on the next payday before the minimum is applied (deductions included). */
  payableOnNextPaydayCents: number;
  /** Approved since the cut-off: paid on the payday after the next. */
  payableLaterCents: number;
  followingPayday: string;
  /** In their hold, by the day it ends (soonest first); their sum is `pendingCents`. */
  pendingCents: number;
  pending: PendingDay[];
  /** Held by the fraud review (never why). */
  underReviewCents: number;
  /** In a payout that is scheduled and not sent yet. */
  inPayoutCents: number;
}

export interface ActiveVisitors {
  activeVisitors: number;
  windowMinutes: number;
  at: string;
}

export interface DailyActivity {
  /** UTC day, YYYY-MM-DD. */
  date: string;
  clicks: number;
  conversions: number;
}

export interface AffiliateTimeline {
  days: DailyActivity[];
}

export const PAYOUT_STATUSES = ['scheduled', 'sent', 'paid', 'failed'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** What the affiliate's history and the operators' console both say of a payout. */
export interface PayoutCore {
  id: string;
  periodStart: string;
  periodEnd: string;
  /** USD cents. */
  amountCents: number;
  currency: string;
  method: PaymentMethodType;
  status: PayoutStatus;
  /** The payday, YYYY-MM-DD. */
  scheduledFor: string;
  paidAt: string | null;
}

export interface PayoutSummary extends PayoutCore {
  /**
   * What the affiliate receives, in the paid currency, once the payout is exported (absent before):
   * EUR cents for a SEPA transfer (converted at the operator's rate), the USD amount for PayPal.
   */
  amountPaidCents?: number;
  paidCurrency?: string;
  /** When the payout was sent (PayPal batch or bank transfer); absent until it is. */
  sentAt?: string;
}

export interface AffiliateSettings {
  email: string;
  firstName: string;
  lastName: string;
  language: 'fr' | 'en';
  notifications: NotificationPreferences;
}
