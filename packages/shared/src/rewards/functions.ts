import type { RuleKind } from './constants.ts';
import type {
  AdminArchiveGroupRequest,
  AdminCreateCampaignRateRequest,
  AdminCreateGroupRequest,
  AdminDeleteCampaignRateRequest,
  AdminListCampaignRatesRequest,
  AdminListRuleVersionsRequest,
  AdminMoveAffiliateToGroupRequest,
  AdminPublishRuleVersionRequest,
  AdminRenameGroupRequest,
} from './schemas.ts';

// Partner groups, versioned reward rules and campaign rates (docs/product/money.md#partner-groups-and-reward-rules,
// docs/product/money.md#operators-groups-rules-and-campaigns): the operators' functions (`access: 'admin'`,
// each change audited in its transaction) and the affiliate's view of their own rule and commissions
// (`access: 'affiliate'`). Money in integer USD cents, times as ISO 8601 UTC instants. Inputs: schemas.ts.

/** A flat rule's step: from this many qualified conversions, this commission. */
export interface RewardTier {
  from: number;
  cents: number;
}

/** What a rule pays and when (one version's terms). */
export interface RewardRuleTerms {
  kind: RuleKind;
  /** Flat: rising steps, the first from 0 qualified conversions; null for a percentage. */
  tiers: RewardTier[] | null;
  /** Percentage: basis points of the proceeds; null for a flat rule. */
  percentBasisPoints: number | null;
  /** Percentage: renewals earn for this many months after the first purchase; null for the first purchase only. */
  recurringMonths: number | null;
  holdDays: number;
  minimumPayoutCents: number;
}

/** One version of a group's rule. */
export interface RewardRuleVersion extends RewardRuleTerms {
  version: number;
  /** Events from this instant on are priced by it (until a later version takes effect). */
  effectiveFrom: string;
  createdAt: string;
  /** The operator who published it (their e-mail while the account exists); null for the migration's. */
  createdBy: string | null;
}

export interface AdminGroup {
  /** A slug: `default`, `creators`. */
  id: string;
  name: string;
  /** The group every new affiliate joins, carrying the specification's rule; never archived. */
  isDefault: boolean;
  archivedAt: string | null;
  createdAt: string;
  /** The version in force now (null before the group's first version takes effect). */
  current: RewardRuleVersion | null;
  /** A version published to take effect later, if any (the latest). */
  upcoming: RewardRuleVersion | null;
  versionCount: number;
  /** Affiliates in the group (deleted accounts not counted). */
  affiliateCount: number;
}

export interface AdminGroupVersions {
  group: AdminGroup;
  /** Every version, newest first. */
  versions: RewardRuleVersion[];
}

/** A referral code's own rate for a range of whole UTC days. */
export interface AdminCampaignRate {
  /** Decimal text of its id: "campaign rate #3". */
  id: string;
  code: string;
  /** The first instant it covers (00:00 UTC of its first day, or when it was created if later). */
  startsAt: string;
  /** The first instant it no longer covers: 00:00 UTC after its last day. */
  endsAt: string;
  kind: RuleKind;
  amountCents: number | null;
  percentBasisPoints: number | null;
  createdAt: string;
  /** Commissions it priced: while any, it cannot be deleted. */
  commissions: number;
}

/**
 * What a commission was priced from, as recorded with it: the qualified conversions before it and the
 * step they reached (flat), the proceeds and the rate (percentage), or the code's campaign rate.
 */
export type CommissionPricing =
  | {
      kind: 'flat';
      /** Null for a commission recorded before rules were versioned (its step alone was kept). */
      qualifiedBefore: number | null;
      /** 1-based step of the rule; null when unknown. */
      step: number | null;
      /** The rule's number of steps. */
      steps: number;
    }
  | { kind: 'percentage'; proceedsCents: number; percentBasisPoints: number }
  | {
      kind: 'campaign';
      campaignRateId: string;
      amountCents: number | null;
      proceedsCents: number | null;
      percentBasisPoints: number | null;
    };

/** "Why this amount": the rule version that priced a commission and its inputs. */
export interface CommissionWhy {
  /** A first paid subscription, or a renewal under a recurring percentage. */
  commissionKind: 'first-purchase' | 'renewal';
  defaultGroup: boolean;
  /** The group's name for operators; null in the affiliate's own view (a name is the operators' label). */
  groupName: string | null;
  ruleVersion: number;
  /** Null when the commission was written without its inputs (an import). */
  pricing: CommissionPricing | null;
}

export const COMMISSION_STATUSES = ['pending', 'approved', 'paid', 'reversed'] as const;
export type CommissionStatus = (typeof COMMISSION_STATUSES)[number];

/** One of the affiliate's commissions, as the Payments tab lists it. */
export interface AffiliateCommission {
  id: string;
  occurredAt: string;
  amountCents: number;
  status: CommissionStatus;
  why: CommissionWhy;
}

/** The affiliate's own rule, for the dashboard and the terms page. */
export interface AffiliateRule {
  /**
   * The rule in force is the specification's ($2, $4 from 100 qualified conversions, 30 days, $20): the
   * pages keep the specification's texts. Another rule is written out from templates.
   */
  specificationRule: boolean;
  rule: RewardRuleTerms & { version: number; effectiveFrom: string };
}

export interface RewardsFunctions {
  /** Every group with its rule in force, its number of versions and of affiliates; the default first. */
  adminListGroups: { request: null; response: { groups: AdminGroup[] } };
  /** A new group with no rule yet (publish its first version next). `invalid-argument` when the id is taken. */
  adminCreateGroup: { request: AdminCreateGroupRequest; response: AdminGroup };
  adminRenameGroup: { request: AdminRenameGroupRequest; response: AdminGroup };
  /** Refused (`invalid-argument`, field `groupId`) while the group has affiliates, and for the default group. */
  adminArchiveGroup: { request: AdminArchiveGroupRequest; response: AdminGroup };
  /** The group and every version of its rule, newest first. */
  adminListRuleVersions: { request: AdminListRuleVersionsRequest; response: AdminGroupVersions };
  /** The next version of the group's rule (previous + 1), in force from `effectiveFrom` (default now). */
  adminPublishRuleVersion: { request: AdminPublishRuleVersionRequest; response: AdminGroupVersions };
  /** Moves an affiliate to a group whose rule is in force; their next events are priced by it. */
  adminMoveAffiliateToGroup: {
    request: AdminMoveAffiliateToGroupRequest;
    response: { affiliateId: string; groupId: string; previousGroupId: string };
  };
  /** The campaign rates of every referral code of an affiliate, by code then start. */
  adminListCampaignRates: { request: AdminListCampaignRatesRequest; response: { rates: AdminCampaignRate[] } };
  /** Refused when the range overlaps another of the code's or starts before today. */
  adminCreateCampaignRate: { request: AdminCreateCampaignRateRequest; response: AdminCampaignRate };
  /** Refused once a commission was priced by it. */
  adminDeleteCampaignRate: { request: AdminDeleteCampaignRateRequest; response: { deleted: string } };
  /** The caller's group's rule in force now. */
  getAffiliateRule: { request: null; response: AffiliateRule };
  /** The caller's latest commissions (RECENT_COMMISSIONS_LIMIT), each with why it is that amount. */
  getAffiliateCommissions: { request: null; response: { commissions: AffiliateCommission[] } };
}
