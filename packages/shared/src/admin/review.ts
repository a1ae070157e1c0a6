import * as z from 'zod/mini';
import { formSchema } from '../callable/field-errors.ts';
import { storableText } from '../callable/storable-text.ts';
import type { AdminPage } from './responses.ts';
import { ADMIN_PAGE_SIZE_MAX, ADMIN_REASON_MAX } from './schemas.ts';

// The fraud review of the affiliate programme (docs/product/review.md): the signals, what a group's
// policy makes them do, the cases operators decide, and the console's functions' inputs and answers.

/** The signals, in the order the console lists them. */
export const REVIEW_SIGNALS = [
  'self-referral',
  'shared-payout-account',
  'click-burst',
  'refund-rate',
  'disposable-email',
] as const;
export type ReviewSignalKind = (typeof REVIEW_SIGNALS)[number];

/** flag: a case opens; hold: it also holds the affected commissions out of every payout until decided. */
export const REVIEW_ACTIONS = ['flag', 'hold'] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

export const REVIEW_CASE_STATUSES = ['open', 'approved', 'rejected', 'banned'] as const;
export type ReviewCaseStatus = (typeof REVIEW_CASE_STATUSES)[number];

/** approve releases the held commissions; reject reverses them; ban reverses them and disables the account. */
export const REVIEW_DECISIONS = ['approve', 'reject', 'ban'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

// Thresholds (docs/product/review.md#signals), each with its reason.

/**
 * Click bursts: more than this many counted clicks on one affiliate's codes from one IP hash, or from
 * one device, within the window. A person clicks a code once an hour at most (one counted click per
 * code, visitor and hour); ten distinct counted visits from one address in ten minutes is a script
 * or a click farm, not a shared office.
 */
export const CLICK_BURST_MAX_CLICKS = 10;
export const CLICK_BURST_WINDOW_MINUTES = 10;
/** Visits from data-centre user agents (scripts, headless browsers, cloud crawlers) on one affiliate's codes within the same window. */
export const DATA_CENTRE_MAX_VISITS = 10;
/** Refund rate: refunded first purchases over first purchases, above this, once there are enough of them. */
export const REFUND_RATE_THRESHOLD_PERCENT = 30;
/** Below this many first purchases a rate means little (3 refunds of 5 is chance). */
export const REFUND_RATE_MIN_CONVERSIONS = 10;

/** What matched the affiliate's own identity in a self-referral. */
export const SELF_REFERRAL_MATCHES = ['signup-ip', 'signup-device', 'signed-in-browser', 'email'] as const;
export type SelfReferralMatch = (typeof SELF_REFERRAL_MATCHES)[number];

/** A signal's evidence: counts, dates (ISO 8601 UTC), codes and internal ids; never an e-mail, an IP or an account number. */
export type ReviewEvidence =
  | {
      kind: 'self-referral';
      matches: SelfReferralMatch[];
      code: string | null;
      /** When the visit or the install was recorded. */
      at: string;
      /** The install (internal id) the signal is about, when it is about one. */
      installId: string | null;
    }
  | {
      kind: 'shared-payout-account';
      method: 'paypal' | 'bank_transfer';
      /** Affiliates with this account, this one included. */
      affiliateCount: number;
      /** The others' internal ids, for the console's links. */
      otherAffiliateIds: string[];
    }
  | {
      kind: 'click-burst';
      source: 'ip' | 'device' | 'data-centre';
      clicks: number;
      threshold: number;
      windowMinutes: number;
      codes: string[];
      from: string;
      to: string;
    }
  | {
      kind: 'refund-rate';
      refunded: number;
      firstPurchases: number;
      ratePercent: number;
      thresholdPercent: number;
      minimumConversions: number;
    }
  | {
      kind: 'disposable-email';
      /** The disposable-address service's domain (a public service's name, not the person's address). */
      domain: string;
    };

// The console's functions.

const caseId = z.string().check(z.regex(/^[1-9]\d{0,14}$/));
const groupId = z.string().check(z.regex(/^[a-z0-9][a-z0-9-]{0,39}$/));

export const REVIEW_QUEUE_FILTERS = ['open', 'decided'] as const;
export type ReviewQueueFilter = (typeof REVIEW_QUEUE_FILTERS)[number];

export const adminListReviewCasesSchema = z.strictObject({
  status: z.optional(z.enum(REVIEW_QUEUE_FILTERS)),
  page: z.optional(z.int().check(z.minimum(1), z.maximum(10_000))),
  pageSize: z.optional(z.int().check(z.minimum(1), z.maximum(ADMIN_PAGE_SIZE_MAX))),
});

export const adminGetReviewCaseSchema = z.strictObject({ caseId });

/** The decision form: its messages are keys of the console's namespace. */
export const adminDecideReviewCaseSchema = formSchema(
  'admin',
  z.strictObject({
    caseId,
    decision: z.enum(REVIEW_DECISIONS),
    reason: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, 'review.errors.reasonRequired'),
        z.maxLength(ADMIN_REASON_MAX, 'review.errors.reasonTooLong'),
        storableText(),
      ),
  }),
);

export const adminGetReviewPoliciesSchema = z.optional(z.nullable(z.strictObject({})));

export const adminSetReviewPolicySchema = z.strictObject({
  groupId,
  signal: z.enum(REVIEW_SIGNALS),
  action: z.enum(REVIEW_ACTIONS),
});

export type AdminListReviewCasesRequest = z.input<typeof adminListReviewCasesSchema>;
export type AdminGetReviewCaseRequest = z.input<typeof adminGetReviewCaseSchema>;
export type AdminDecideReviewCaseRequest = z.input<typeof adminDecideReviewCaseSchema>;
export type AdminGetReviewPoliciesRequest = z.input<typeof adminGetReviewPoliciesSchema>;
export type AdminSetReviewPolicyRequest = z.input<typeof adminSetReviewPolicySchema>;

/** A case in the queue. */
export interface AdminReviewCaseSummary {
  id: string;
  affiliateId: string;
  /** The affiliate's name as the console shows it (null once deleted). */
  affiliateName: string | null;
  status: ReviewCaseStatus;
  openedAt: string;
  decidedAt: string | null;
  signalCount: number;
  /** The kinds of its signals, each once. */
  kinds: ReviewSignalKind[];
  /** Commissions the case holds now. */
  heldCents: number;
}

export interface AdminReviewSignal {
  id: string;
  kind: ReviewSignalKind;
  action: ReviewAction;
  detectedAt: string;
  evidence: ReviewEvidence;
}

/** A commission the case holds (or held, once decided). */
export interface AdminReviewCommission {
  conversionId: string;
  code: string | null;
  occurredAt: string;
  commissionCents: number;
  kind: 'first-purchase' | 'renewal';
  /** Where it stands: held by the case, released to its status, or reversed. */
  state: 'held' | 'released' | 'reversed';
}

export interface AdminReviewCase extends AdminReviewCaseSummary {
  groupId: string;
  decidedBy: string | null;
  reason: string | null;
  signals: AdminReviewSignal[];
  commissions: AdminReviewCommission[];
}

export interface AdminReviewDecisionResult {
  caseId: string;
  status: ReviewCaseStatus;
  /** Commissions released (approve) or reversed (reject, ban). */
  commissions: number;
  cents: number;
}

export interface AdminReviewPolicies {
  groups: { groupId: string; name: string; actions: Record<ReviewSignalKind, ReviewAction> }[];
}

export interface ReviewFunctions {
  /** The review queue: open cases (or decided ones) newest first, with their signal counts. */
  adminListReviewCases: { request: AdminListReviewCasesRequest; response: AdminPage<AdminReviewCaseSummary> };
  /** A case with its signals, their evidence and its commissions. `not-found` for an unknown id. */
  adminGetReviewCase: { request: AdminGetReviewCaseRequest; response: AdminReviewCase };
  /**
   * Decides an open case, with a reason (audited): approve, reject or ban. A decided case is
   * `failed-precondition` (details.code `case-decided`).
   */
  adminDecideReviewCase: { request: AdminDecideReviewCaseRequest; response: AdminReviewDecisionResult };
  /** Each group's action per signal. */
  adminGetReviewPolicies: { request: AdminGetReviewPoliciesRequest; response: AdminReviewPolicies };
  /** Sets one group's action for one signal (audited); answers every group's policies. */
  adminSetReviewPolicy: { request: AdminSetReviewPolicyRequest; response: AdminReviewPolicies };
}
