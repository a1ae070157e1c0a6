import { DEFAULT_GROUP_ID } from '@skanova/shared/rewards/constants';
import type { CommissionPricing, CommissionWhy } from '@skanova/shared/rewards/functions';
import type { RewardTier } from '../db/schema/ledger.ts';
import type { TransactionQuery } from '../db/transaction.ts';

// Reward rules (docs/product/money.md#partner-groups-and-reward-rules): each affiliate's group has a
// versioned rule; the version in force when an event occurred prices its commission, and the
// commission keeps the version and the inputs that priced it. The default group's rule is the
// programme's: $2, $4 once 100 qualified conversions are reached, a 30-day hold, $20 minimum.

export interface RewardRule {
  id: number;
  groupId: string;
  version: number;
  effectiveFrom: Date;
  kind: 'flat' | 'percentage';
  /** Flat: rising steps, the first from 0 qualified conversions. */
  tiers: RewardTier[] | null;
  /** Percentage: basis points (1/100 of a percent) of the proceeds. */
  percentBasisPoints: number | null;
  /** Percentage: renewals earn for this many months after the first purchase; null for the first purchase only. */
  recurringMonths: number | null;
  holdDays: number;
  minimumPayoutCents: number;
}

/** What a commission was priced from, kept with it (conversions.pricing). */
export type PricingInputs =
  | { kind: 'flat'; ruleVersion: number; qualifiedBefore: number; tier: number }
  | { kind: 'percentage'; ruleVersion: number; proceedsCents: number; percentBasisPoints: number }
  | {
      kind: 'campaign';
      /** The group's rule version in force (its hold and minimum payout still apply). */
      ruleVersion: number;
      campaignRateId: number;
      amountCents?: number;
      proceedsCents?: number;
      percentBasisPoints?: number;
    };

export interface Pricing {
  commissionCents: number;
  /** `standard` on a flat rule's first step, `premium` on a later one; `percentage`; `campaign` for a code's own rate. */
  rateTier: 'standard' | 'premium' | 'percentage' | 'campaign';
  inputs: PricingInputs;
}

/** A referral code's own rate for a date range (migrations/0010_campaign_rates.sql). */
export interface CampaignRate {
  id: number;
  kind: 'flat' | 'percentage';
  amountCents: number | null;
  percentBasisPoints: number | null;
}

/** The number of qualified conversions beyond which no step of the rule changes (counting can stop there). */
export function qualifiedCountCap(rule: RewardRule): number {
  return rule.tiers === null ? 0 : Math.max(0, ...rule.tiers.map((tier) => tier.from));
}

/** `cents` × `basisPoints` / 10 000, rounded half up, in integers. */
export function percentOf(cents: number, basisPoints: number): number {
  return Number((BigInt(cents) * BigInt(basisPoints) * 2n + 10_000n) / 20_000n);
}

/**
 * The commission of a first paid subscription under `rule`, given the affiliate's qualified
 * conversions before it and the purchase's proceeds in USD cents (null when unknown: a percentage
 * of an unknown price is 0).
 */
export function priceFirstPurchase(
  rule: RewardRule,
  input: { qualifiedBefore: number; proceedsCents: number | null },
): Pricing {
  if (rule.kind === 'flat') {
    const tiers = rule.tiers ?? [];
    let tier = 0;
    tiers.forEach((step, index) => {
      if (input.qualifiedBefore >= step.from) tier = index;
    });
    return {
      commissionCents: tiers[tier]?.cents ?? 0,
      rateTier: tier === 0 ? 'standard' : 'premium',
      inputs: { kind: 'flat', ruleVersion: rule.version, qualifiedBefore: input.qualifiedBefore, tier },
    };
  }
  const { commissionCents, ...share } = shareOfProceeds(input.proceedsCents, rule.percentBasisPoints);
  return {
    commissionCents,
    rateTier: 'percentage',
    inputs: { kind: 'percentage', ruleVersion: rule.version, ...share },
  };
}

/** A percentage's commission and what it was priced from (an unknown price counts as 0). */
function shareOfProceeds(proceeds: number | null, basisPoints: number | null) {
  const proceedsCents = proceeds ?? 0;
  const percentBasisPoints = basisPoints ?? 0;
  return { commissionCents: percentOf(proceedsCents, percentBasisPoints), proceedsCents, percentBasisPoints };
}

/** A first purchase through a code whose campaign rate covers its time: priced by that rate. */
export function priceWithCampaign(
  campaign: CampaignRate,
  rule: RewardRule,
  input: { proceedsCents: number | null },
): Pricing {
  if (campaign.kind === 'flat') {
    const amountCents = campaign.amountCents ?? 0;
    return {
      commissionCents: amountCents,
      rateTier: 'campaign',
      inputs: { kind: 'campaign', ruleVersion: rule.version, campaignRateId: campaign.id, amountCents },
    };
  }
  const { commissionCents, ...share } = shareOfProceeds(input.proceedsCents, campaign.percentBasisPoints);
  return {
    commissionCents,
    rateTier: 'campaign',
    inputs: { kind: 'campaign', ruleVersion: rule.version, campaignRateId: campaign.id, ...share },
  };
}

/** The campaign rate of the referral code covering `at` (its start included, its end not), if any. */
export async function campaignRateAt(
  tx: TransactionQuery,
  referralCodeId: string,
  at: Date,
): Promise<CampaignRate | null> {
  const { rows } = await tx.query<{
    id: number | string;
    kind: 'flat' | 'percentage';
    amount_cents: number | string | null;
    percent_basis_points: number | null;
  }>(
    `SELECT id, kind, amount_cents, percent_basis_points FROM campaign_rates
     WHERE referral_code_id = $1 AND starts_at <= $2 AND ends_at > $2
     ORDER BY starts_at DESC LIMIT 1`,
    [referralCodeId, at.toISOString()],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: Number(row.id),
    kind: row.kind,
    amountCents: row.amount_cents === null ? null : Number(row.amount_cents),
    percentBasisPoints: row.percent_basis_points,
  };
}

export interface RuleRow {
  id: number | string;
  group_id: string;
  version: number;
  effective_from: Date | string;
  kind: 'flat' | 'percentage';
  tiers: RewardTier[] | string | null;
  percent_basis_points: number | null;
  recurring_months: number | null;
  hold_days: number;
  minimum_payout_cents: number | string;
}

/** A row of `reward_rules` as a rule. */
export function ruleOf(row: RuleRow): RewardRule {
  return {
    id: Number(row.id),
    groupId: row.group_id,
    version: row.version,
    effectiveFrom: new Date(row.effective_from),
    kind: row.kind,
    tiers: typeof row.tiers === 'string' ? (JSON.parse(row.tiers) as RewardTier[]) : row.tiers,
    percentBasisPoints: row.percent_basis_points,
    recurringMonths: row.recurring_months,
    holdDays: row.hold_days,
    minimumPayoutCents: Number(row.minimum_payout_cents),
  };
}

/**
 * The rule of the affiliate's group in force at `at`: the latest version effective by then. An event
 * from before the group's first version (an affiliate moved into a group created after it, whose
 * purchase arrives late) is priced by that first version: the affiliate's group decides, and the
 * group had no earlier rule (migrations/0011_partner_group_archive.sql does the same for a row
 * written without its rule).
 */
export async function ruleInForce(tx: TransactionQuery, affiliateId: string, at: Date): Promise<RewardRule> {
  const { rows } = await tx.query<RuleRow>(
    `SELECT r.* FROM affiliates a
     JOIN reward_rules r ON r.group_id = a.group_id
     WHERE a.id = $1
     ORDER BY r.effective_from <= $2 DESC, -- the versions in force by then, if any
              CASE WHEN r.effective_from <= $2 THEN r.effective_from END DESC NULLS LAST, -- the latest of them
              r.effective_from, -- else the first version
              r.version DESC
     LIMIT 1`,
    [affiliateId, at.toISOString()],
  );
  const row = rows[0];
  if (!row) throw new Error(`no reward rule in force for affiliate ${affiliateId} at ${at.toISOString()}`);
  return ruleOf(row);
}

/**
 * SQL: `column` of the rule in force at `at` for the group `groupId` (both SQL expressions), e.g.
 * the minimum payout of an affiliate's group today; before the group's first version, that version's.
 */
export function ruleInForceSql(
  column: 'minimum_payout_cents' | 'hold_days' | 'id',
  groupId: string,
  at: string,
): string {
  return `coalesce(
            (SELECT r.${column} FROM reward_rules r WHERE r.group_id = ${groupId} AND r.effective_from <= ${at}
             ORDER BY r.effective_from DESC, r.version DESC LIMIT 1),
            (SELECT r.${column} FROM reward_rules r WHERE r.group_id = ${groupId}
             ORDER BY r.effective_from, r.version DESC LIMIT 1))`;
}

/** The minimum payout of each affiliate's group at `at`, in cents. */
export async function minimumPayouts(
  tx: TransactionQuery,
  affiliateIds: readonly string[],
  at: Date,
): Promise<Map<string, number>> {
  const { rows } = await tx.query<{ id: string; minimum: number | string }>(
    `SELECT a.id, ${ruleInForceSql('minimum_payout_cents', 'a.group_id', '$2::timestamptz')} AS minimum
     FROM affiliates a WHERE a.id = ANY($1::text[])`,
    [`{${affiliateIds.map((id) => `"${id.replace(/["\\]/g, '\\$&')}"`).join(',')}}`, at.toISOString()],
  );
  return new Map(rows.map((row) => [row.id, Number(row.minimum)]));
}

/**
 * "Why this amount" (docs/product/money.md#partner-groups-and-reward-rules): the columns a query of
 * conversions `c` selects, with COMMISSION_WHY_JOINS, to explain each commission — its kind, the rule
 * version that priced it and its group, and the inputs it was priced from.
 */
export const COMMISSION_WHY_COLUMNS = `c.kind AS commission_kind, c.pricing, r.version AS rule_version,
       r.group_id AS rule_group_id, g.name AS rule_group_name, coalesce(jsonb_array_length(r.tiers), 0) AS rule_steps`;
export const COMMISSION_WHY_JOINS = `JOIN reward_rules r ON r.id = c.rule_id JOIN partner_groups g ON g.id = r.group_id`;

export interface CommissionWhyRow {
  commission_kind: 'first-purchase' | 'renewal';
  pricing: unknown;
  rule_version: number;
  rule_group_id: string;
  rule_group_name: string;
  rule_steps: number;
}

const numberOr = (value: unknown, fallback: number | null): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;

/** What a commission's stored inputs say, in the contract's words; null when it has none. */
export function explainPricing(pricing: unknown, steps: number): CommissionPricing | null {
  const inputs = typeof pricing === 'string' ? (JSON.parse(pricing) as unknown) : pricing;
  if (typeof inputs !== 'object' || inputs === null) return null;
  const record = inputs as Record<string, unknown>;
  switch (record.kind) {
    case 'flat': {
      // Recorded before rules were versioned: the tier's name ('standard' or 'premium') was kept.
      const tier =
        typeof record.tier === 'number'
          ? record.tier
          : record.tier === 'premium'
            ? 1
            : record.tier === 'standard'
              ? 0
              : null;
      return {
        kind: 'flat',
        qualifiedBefore: numberOr(record.qualifiedBefore, null),
        step: tier === null ? null : tier + 1,
        steps: Math.max(steps, tier === null ? 1 : tier + 1),
      };
    }
    case 'percentage':
      return {
        kind: 'percentage',
        proceedsCents: numberOr(record.proceedsCents, 0) ?? 0,
        percentBasisPoints: numberOr(record.percentBasisPoints, 0) ?? 0,
      };
    case 'campaign':
      return {
        kind: 'campaign',
        campaignRateId: String(record.campaignRateId ?? ''),
        amountCents: numberOr(record.amountCents, null),
        proceedsCents: numberOr(record.proceedsCents, null),
        percentBasisPoints: numberOr(record.percentBasisPoints, null),
      };
    default:
      return null;
  }
}

/** A row of COMMISSION_WHY_COLUMNS as the contract's explanation; the group's name for operators only. */
export function commissionWhy(row: CommissionWhyRow, audience: 'operator' | 'affiliate'): CommissionWhy {
  return {
    commissionKind: row.commission_kind,
    defaultGroup: row.rule_group_id === DEFAULT_GROUP_ID,
    groupName: audience === 'operator' ? row.rule_group_name : null,
    ruleVersion: row.rule_version,
    pricing: explainPricing(row.pricing, row.rule_steps),
  };
}
