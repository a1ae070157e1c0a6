import type { PaymentMethodType } from '../affiliate/payment-method.ts';
import type { AffiliateStats, PayoutSummary } from '../affiliate/stats.ts';
import type { Language } from '../site/constants.ts';
import type { ContactSubject } from '../support/schemas.ts';
import type { AffiliateStatus } from '../affiliate/schemas.ts';
import type { ConversionStatus, TicketStatus } from './schemas.ts';
import type { VitalName, VitalRating } from './vitals.ts';

// Answers of the operator console's functions (BRIEF §5.10). Money in integer cents (USD), times
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
  rateTier: 'standard' | 'premium';
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
