import * as z from 'zod/mini';
import { formSchema } from '../callable/field-errors.ts';
import { storableText } from '../callable/storable-text.ts';
import {
  AMOUNT_MAX_CENTS,
  GROUP_ID_MAX,
  GROUP_ID_PATTERN,
  GROUP_NAME_MAX,
  HOLD_DAYS_MAX,
  PERCENT_BASIS_POINTS_MAX,
  RECURRING_MONTHS_MAX,
  RULE_KINDS,
  TIER_FROM_MAX,
  TIERS_MAX,
} from './constants.ts';

// Inputs of the partner-group functions (docs/product/money.md#operators-groups-rules-and-campaigns). Each
// operator's form is one of these schemas (ADR 009): messages are keys of the `admin` namespace, so a
// refusal reaches the form as field messages in both languages, the same in the browser's check and in
// the server's `invalid-argument`. What needs the database (a group's affiliates, a code's other
// campaigns, the clock) the server checks under a lock and answers in the same shape.

/** A group's id as the forms and the functions take it. */
const groupId = z
  .string('groups.errors.idFormat')
  .check(
    z.trim(),
    z.maxLength(GROUP_ID_MAX, { error: 'groups.errors.idFormat', abort: true }),
    z.regex(GROUP_ID_PATTERN, 'groups.errors.idFormat'),
  );

const groupName = z
  .string('groups.errors.nameRequired')
  .check(
    z.trim(),
    z.minLength(1, { error: 'groups.errors.nameRequired', abort: true }),
    z.maxLength(GROUP_NAME_MAX, 'groups.errors.nameTooLong'),
    storableText('groups.errors.nameInvalid'),
  );

/** Affiliate ids are the auth library's generated ids (as admin/schemas.ts). */
const affiliateId = z.string().check(z.minLength(1), z.maxLength(64), z.regex(/^[\w-]+$/));

/** An amount in integer cents, 0 or more (the forms convert dollars: form-values.ts). */
const cents = (formatKey: string) =>
  z.int(formatKey).check(z.minimum(0, formatKey), z.maximum(AMOUNT_MAX_CENTS, 'rules.errors.amountTooLarge'));

/** A percentage in basis points: 0 to 10,000 (0–100 %). */
const basisPoints = z
  .int('rules.errors.percentRange')
  .check(z.minimum(0, 'rules.errors.percentRange'), z.maximum(PERCENT_BASIS_POINTS_MAX, 'rules.errors.percentRange'));

const tier = z.strictObject({
  from: z
    .int('rules.errors.tierFrom')
    .check(z.minimum(0, 'rules.errors.tierFrom'), z.maximum(TIER_FROM_MAX, 'rules.errors.tierFrom')),
  cents: cents('rules.errors.amountFormat'),
});

export const adminCreateGroupSchema = formSchema('admin', z.strictObject({ id: groupId, name: groupName }));

export const adminRenameGroupSchema = formSchema('admin', z.strictObject({ groupId, name: groupName }));

export const adminArchiveGroupSchema = formSchema('admin', z.strictObject({ groupId }));

export const adminListRuleVersionsSchema = formSchema('admin', z.strictObject({ groupId }));

/**
 * A new version of a group's rule. Flat: `tiers`, rising strictly (by conversions and by amount), the
 * first from 0. Percentage: `percentBasisPoints`, on the first purchase only (`recurringMonths` absent
 * or null) or on renewals for 1–120 months. Both: the hold and the minimum payout. `effectiveFrom`
 * defaults to now; the server refuses an instant already past, or before the group's latest version.
 */
export const adminPublishRuleVersionSchema = formSchema(
  'admin',
  z
    .strictObject({
      groupId,
      kind: z.enum(RULE_KINDS, 'rules.errors.kind'),
      tiers: z.optional(z.array(tier, 'rules.errors.tiersRequired')),
      percentBasisPoints: z.optional(basisPoints),
      recurringMonths: z.optional(
        z.nullable(
          z
            .int('rules.errors.recurringRange')
            .check(
              z.minimum(1, 'rules.errors.recurringRange'),
              z.maximum(RECURRING_MONTHS_MAX, 'rules.errors.recurringRange'),
            ),
        ),
      ),
      holdDays: z
        .int('rules.errors.holdRange')
        .check(z.minimum(0, 'rules.errors.holdRange'), z.maximum(HOLD_DAYS_MAX, 'rules.errors.holdRange')),
      minimumPayoutCents: cents('rules.errors.minimumFormat'),
      effectiveFrom: z.optional(z.iso.datetime({ offset: true, error: 'rules.errors.effectiveFormat' })),
    })
    .check(
      z.superRefine((rule, ctx) => {
        const issue = (path: PropertyKey[], message: string) =>
          ctx.addIssue({ code: 'custom', input: rule, path, message });
        if (rule.kind === 'flat') {
          const tiers = rule.tiers ?? [];
          if (tiers.length === 0) issue(['tiers'], 'rules.errors.tiersRequired');
          if (tiers.length > TIERS_MAX) issue(['tiers'], 'rules.errors.tiersTooMany');
          tiers.forEach((step, index) => {
            const before = tiers[index - 1];
            if (index === 0 && step.from !== 0) issue(['tiers', 0, 'from'], 'rules.errors.tierFirstFromZero');
            if (before && step.from <= before.from) issue(['tiers', index, 'from'], 'rules.errors.tierFromNotRising');
            if (before && step.cents <= before.cents)
              issue(['tiers', index, 'cents'], 'rules.errors.tierAmountNotRising');
          });
          if (rule.percentBasisPoints !== undefined) issue(['percentBasisPoints'], 'rules.errors.notForFlat');
          if (rule.recurringMonths !== undefined && rule.recurringMonths !== null)
            issue(['recurringMonths'], 'rules.errors.notForFlat');
        } else {
          if (rule.percentBasisPoints === undefined) issue(['percentBasisPoints'], 'rules.errors.percentRange');
          if (rule.tiers !== undefined) issue(['tiers'], 'rules.errors.notForPercentage');
        }
      }),
    ),
);

export const adminMoveAffiliateToGroupSchema = formSchema('admin', z.strictObject({ affiliateId, groupId }));

/** A referral code as the console names it (as the code filter of admin/schemas.ts). */
const referralCode = z
  .string('campaigns.errors.codeUnknown')
  .check(
    z.trim(),
    z.minLength(1, 'campaigns.errors.codeUnknown'),
    z.maxLength(32, 'campaigns.errors.codeUnknown'),
    storableText(),
  );

/** A UTC day, YYYY-MM-DD. */
const day = z.iso.date('campaigns.errors.dayFormat');

export const adminListCampaignRatesSchema = formSchema('admin', z.strictObject({ affiliateId }));

/**
 * A referral code's own rate for whole UTC days, `from` to `until` both included (stored as a start
 * included and an end not: 00:00 UTC after `until`). Flat: `amountCents`; percentage:
 * `percentBasisPoints` of the proceeds. The server refuses a range starting before today and one
 * overlapping another of the code's.
 */
export const adminCreateCampaignRateSchema = formSchema(
  'admin',
  z
    .strictObject({
      code: referralCode,
      from: day,
      until: day,
      kind: z.enum(RULE_KINDS, 'rules.errors.kind'),
      amountCents: z.optional(cents('rules.errors.amountFormat')),
      percentBasisPoints: z.optional(basisPoints),
    })
    .check(
      z.superRefine((rate, ctx) => {
        const issue = (path: PropertyKey[], message: string) =>
          ctx.addIssue({ code: 'custom', input: rate, path, message });
        if (rate.until < rate.from) issue(['until'], 'campaigns.errors.rangeReversed');
        if (rate.kind === 'flat') {
          if (rate.amountCents === undefined) issue(['amountCents'], 'rules.errors.amountFormat');
          if (rate.percentBasisPoints !== undefined) issue(['percentBasisPoints'], 'rules.errors.notForFlat');
        } else {
          if (rate.percentBasisPoints === undefined) issue(['percentBasisPoints'], 'rules.errors.percentRange');
          if (rate.amountCents !== undefined) issue(['amountCents'], 'rules.errors.notForPercentage');
        }
      }),
    ),
);

/** Campaign rates are bigint identities, sent as decimal text (within a safe JavaScript integer). */
export const adminDeleteCampaignRateSchema = formSchema(
  'admin',
  z.strictObject({
    campaignRateId: z.string('campaigns.errors.unknown').check(z.regex(/^[1-9]\d{0,14}$/, 'campaigns.errors.unknown')),
  }),
);

export type AdminCreateGroupRequest = z.input<typeof adminCreateGroupSchema>;
export type AdminRenameGroupRequest = z.input<typeof adminRenameGroupSchema>;
export type AdminArchiveGroupRequest = z.input<typeof adminArchiveGroupSchema>;
export type AdminListRuleVersionsRequest = z.input<typeof adminListRuleVersionsSchema>;
export type AdminPublishRuleVersionRequest = z.input<typeof adminPublishRuleVersionSchema>;
export type AdminMoveAffiliateToGroupRequest = z.input<typeof adminMoveAffiliateToGroupSchema>;
export type AdminListCampaignRatesRequest = z.input<typeof adminListCampaignRatesSchema>;
export type AdminCreateCampaignRateRequest = z.input<typeof adminCreateCampaignRateSchema>;
export type AdminDeleteCampaignRateRequest = z.input<typeof adminDeleteCampaignRateSchema>;

/**
 * Refusals the server decides with the database, answered as `invalid-argument` with one field error
 * (its path in the request and one of these keys): the forms show them next to their field.
 */
export const REWARDS_REFUSALS = {
  idTaken: { path: 'id', key: 'admin:groups.errors.idTaken' },
  groupUnknown: { path: 'groupId', key: 'admin:groups.errors.unknown' },
  groupArchived: { path: 'groupId', key: 'admin:groups.errors.archived' },
  defaultKept: { path: 'groupId', key: 'admin:groups.errors.defaultKept' },
  hasAffiliates: { path: 'groupId', key: 'admin:groups.errors.hasAffiliates' },
  effectiveInPast: { path: 'effectiveFrom', key: 'admin:rules.errors.effectiveInPast' },
  effectiveBeforePrevious: { path: 'effectiveFrom', key: 'admin:rules.errors.effectiveBeforePrevious' },
  sameGroup: { path: 'groupId', key: 'admin:move.errors.sameGroup' },
  noRuleInForce: { path: 'groupId', key: 'admin:move.errors.noRule' },
  codeUnknown: { path: 'code', key: 'admin:campaigns.errors.codeUnknown' },
  startsInPast: { path: 'from', key: 'admin:campaigns.errors.startsInPast' },
  overlap: { path: 'from', key: 'admin:campaigns.errors.overlap' },
  tooMany: { path: 'code', key: 'admin:campaigns.errors.tooMany' },
  rateUnknown: { path: 'campaignRateId', key: 'admin:campaigns.errors.unknown' },
  rateUsed: { path: 'campaignRateId', key: 'admin:campaigns.errors.used' },
} as const;

export type RewardsRefusal = keyof typeof REWARDS_REFUSALS;
