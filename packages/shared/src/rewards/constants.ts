// Partner groups, reward rules and campaign rates (docs/product/money.md#partner-groups-and-reward-rules,
// docs/product/money.md#operators-groups-rules-and-campaigns): the bounds the operators' forms and the
// server hold them to, each with its reason. Amounts are integer USD cents.

/** The group every affiliate joins at signup; it carries the specification's rule and is never archived. */
export const DEFAULT_GROUP_ID = 'default';

/** A group's id: a slug, as migrations/0007_ledger.sql checks it (it names the group in exports and audit rows). */
export const GROUP_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;
export const GROUP_ID_MAX = 40;
/** A group's name, as the database holds it (1–80 characters). */
export const GROUP_NAME_MAX = 80;

export const RULE_KINDS = ['flat', 'percentage'] as const;
export type RuleKind = (typeof RULE_KINDS)[number];

/** A percentage in basis points (1/100 of a percent): 0 to 100 %. */
export const PERCENT_BASIS_POINTS_MAX = 10_000;
/** Renewals earn for 1 to 120 months (ten years) after the first purchase, or not at all. */
export const RECURRING_MONTHS_MAX = 120;
/** The hold: 0 (approved at once) to 365 days. */
export const HOLD_DAYS_MAX = 365;
/** Steps of a flat rule: enough for any tier table an operator writes, few enough to read in a sentence. */
export const TIERS_MAX = 10;
/** A step starts at this many qualified conversions at most. */
export const TIER_FROM_MAX = 1_000_000;
/**
 * The largest amount a rule or a campaign takes ($100,000): far above any commission or minimum, so
 * that a slip of the keyboard (an extra zero or three) is refused rather than paid.
 */
export const AMOUNT_MAX_CENTS = 10_000_000;

/** Campaign rates one referral code may hold (past ones included): the console lists them all. */
export const CAMPAIGN_RATES_PER_CODE_MAX = 50;

/** The commissions the affiliate's Payments tab lists, newest first. */
export const RECENT_COMMISSIONS_LIMIT = 20;
