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

interface RuleRow {
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

function ruleOf(row: RuleRow): RewardRule {
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

/** The rule of the affiliate's group in force at `at`: the latest version effective by then. */
export async function ruleInForce(tx: TransactionQuery, affiliateId: string, at: Date): Promise<RewardRule> {
  const { rows } = await tx.query<RuleRow>(
    `SELECT r.* FROM affiliates a
     JOIN reward_rules r ON r.group_id = a.group_id AND r.effective_from <= $2
     WHERE a.id = $1
     ORDER BY r.effective_from DESC, r.version DESC LIMIT 1`,
    [affiliateId, at.toISOString()],
  );
  const row = rows[0];
  if (!row) throw new Error(`no reward rule in force for affiliate ${affiliateId} at ${at.toISOString()}`);
  return ruleOf(row);
}

/**
 * SQL: `column` of the rule in force at `at` for the group `groupId` (both SQL expressions), e.g.
 * the minimum payout of an affiliate's group today.
 */
export function ruleInForceSql(
  column: 'minimum_payout_cents' | 'hold_days' | 'id',
  groupId: string,
  at: string,
): string {
  return `(SELECT r.${column} FROM reward_rules r WHERE r.group_id = ${groupId} AND r.effective_from <= ${at}
           ORDER BY r.effective_from DESC, r.version DESC LIMIT 1)`;
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
