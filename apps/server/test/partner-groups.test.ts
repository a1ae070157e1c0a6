import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REWARDS_REFUSALS } from '@skanova/shared/rewards/schemas';
import { useRewardsFixture } from './fixtures/rewards.ts';
import type { TestApp } from './helpers/app.ts';
import { type TestAffiliate, callFn, createTestAffiliate, insertCode } from './helpers/affiliates.ts';
import type { TestOperator } from './helpers/operators.ts';
import { attributedUser, postWebhook, purchaseEvent } from './helpers/revenuecat.ts';

// The operators' partner groups, rule versions and affiliate moves
// (docs/product/money.md#operators-groups-rules-and-campaigns): each call's happy path and its audit
// entry; every bad input answered `invalid-argument` with its field and message key, and nothing
// written; affiliates refused; and a version published now never re-prices what was earned.

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const START = new Date('2026-03-02T09:00:00.000Z');

const rewards = useRewardsFixture({ start: START, affiliate: { firstName: 'Gaia', lastName: 'Groups' } });
const { call, snapshot, expectRefused, auditOf } = rewards;
let t: TestApp;
let operator: TestOperator;
let affiliate: TestAffiliate;

beforeAll(() => {
  ({ t, operator, affiliate } = rewards);
});
beforeEach(() => {
  t.clock.advance(HOUR_MS);
});

let groupCount = 0;
/** A fresh group id, so that each test starts from its own group. */
const nextGroupId = () => `group-${++groupCount}`;

const PERCENT_30_FOR_12_MONTHS = {
  kind: 'percentage',
  percentBasisPoints: 3000,
  recurringMonths: 12,
  holdDays: 30,
  minimumPayoutCents: 2000,
};
const FLAT_STEPS = {
  kind: 'flat',
  tiers: [
    { from: 0, cents: 300 },
    { from: 10, cents: 500 },
  ],
  holdDays: 14,
  minimumPayoutCents: 1000,
};

async function createGroup(rule?: Record<string, unknown>): Promise<string> {
  const id = nextGroupId();
  const created = await call('adminCreateGroup', { id, name: `Group ${id}` });
  expect(created.status).toBe(200);
  if (rule) expect((await call('adminPublishRuleVersion', { groupId: id, ...rule })).status).toBe(200);
  return id;
}

describe('groups', () => {
  it('are created without a rule, listed, renamed, and each change is audited', async () => {
    const id = nextGroupId();
    const created = await call('adminCreateGroup', { id, name: '  Creators  ' });
    expect(created.body.result).toMatchObject({
      id,
      name: 'Creators',
      isDefault: false,
      archivedAt: null,
      current: null,
      upcoming: null,
      versionCount: 0,
      affiliateCount: 0,
    });
    expect(await auditOf('group.created', id)).toEqual([{ actor: operator.userId, details: { name: 'Creators' } }]);

    const renamed = await call('adminRenameGroup', { groupId: id, name: 'Creators 2027' });
    expect(renamed.body.result.name).toBe('Creators 2027');
    expect(await auditOf('group.renamed', id)).toEqual([
      { actor: operator.userId, details: { from: 'Creators', to: 'Creators 2027' } },
    ]);

    const { groups } = (await call('adminListGroups', null)).body.result;
    expect(groups[0]).toMatchObject({
      id: 'default',
      isDefault: true,
      current: {
        version: 1,
        kind: 'flat',
        tiers: [
          { from: 0, cents: 200 },
          { from: 100, cents: 400 },
        ],
      },
    });
    expect(groups.map((group: { id: string }) => group.id)).toContain(id);
  });

  it.each([
    ['an id that is no slug', { id: 'Bad Id', name: 'Bad' }, { path: 'id', key: 'admin:groups.errors.idFormat' }],
    ['an id too long', { id: 'a'.repeat(41), name: 'Long' }, { path: 'id', key: 'admin:groups.errors.idFormat' }],
    ['no name', { id: 'nameless', name: '  ' }, { path: 'name', key: 'admin:groups.errors.nameRequired' }],
    [
      'a name too long',
      { id: 'wordy', name: 'n'.repeat(81) },
      { path: 'name', key: 'admin:groups.errors.nameTooLong' },
    ],
    ['the id of the default group', { id: 'default', name: 'Again' }, REWARDS_REFUSALS.idTaken],
  ])('refuses %s, writing nothing', async (_label, data, field) => {
    await expectRefused('adminCreateGroup', data, field);
  });

  it('refuses an id already taken, and renaming a group that does not exist', async () => {
    const id = await createGroup();
    await expectRefused('adminCreateGroup', { id, name: 'Twice' }, REWARDS_REFUSALS.idTaken);
    await expectRefused('adminRenameGroup', { groupId: 'no-such-group', name: 'X' }, REWARDS_REFUSALS.groupUnknown);
  });

  it('are archived only without affiliates, never the default one', async () => {
    const id = await createGroup(PERCENT_30_FOR_12_MONTHS);
    const member = await createTestAffiliate(t);
    expect((await call('adminMoveAffiliateToGroup', { affiliateId: member.affiliateId, groupId: id })).status).toBe(
      200,
    );

    await expectRefused('adminArchiveGroup', { groupId: id }, REWARDS_REFUSALS.hasAffiliates);
    await expectRefused('adminArchiveGroup', { groupId: 'default' }, REWARDS_REFUSALS.defaultKept);
    await expectRefused('adminArchiveGroup', { groupId: 'no-such-group' }, REWARDS_REFUSALS.groupUnknown);

    expect(
      (await call('adminMoveAffiliateToGroup', { affiliateId: member.affiliateId, groupId: 'default' })).status,
    ).toBe(200);
    const archived = await call('adminArchiveGroup', { groupId: id });
    expect(archived.body.result).toMatchObject({ id, archivedAt: t.clock.now.toISOString(), affiliateCount: 0 });
    expect(await auditOf('group.archived', id)).toHaveLength(1);

    // Archived: no new member, no new version, and archiving again says so.
    await expectRefused(
      'adminMoveAffiliateToGroup',
      { affiliateId: member.affiliateId, groupId: id },
      REWARDS_REFUSALS.groupArchived,
    );
    await expectRefused('adminPublishRuleVersion', { groupId: id, ...FLAT_STEPS }, REWARDS_REFUSALS.groupArchived);
    await expectRefused('adminArchiveGroup', { groupId: id }, REWARDS_REFUSALS.groupArchived);
    // A deleted account left in a group does not keep it from being archived.
    const other = await createGroup(FLAT_STEPS);
    const gone = await createTestAffiliate(t);
    await call('adminMoveAffiliateToGroup', { affiliateId: gone.affiliateId, groupId: other });
    await t.database.sql.query(`UPDATE affiliates SET deleted_at = now() WHERE id = $1`, [gone.affiliateId]);
    expect((await call('adminArchiveGroup', { groupId: other })).status).toBe(200);
  });
});

describe('rule versions', () => {
  it('are numbered one after the other, in force from now by default, and audited', async () => {
    const id = await createGroup();
    const first = await call('adminPublishRuleVersion', { groupId: id, ...PERCENT_30_FOR_12_MONTHS });
    expect(first.body.result.group.current).toMatchObject({
      version: 1,
      effectiveFrom: t.clock.now.toISOString(),
      kind: 'percentage',
      percentBasisPoints: 3000,
      recurringMonths: 12,
      tiers: null,
      holdDays: 30,
      minimumPayoutCents: 2000,
      createdBy: operator.email,
    });
    const later = new Date(t.clock.now.getTime() + 7 * DAY_MS).toISOString();
    const second = await call('adminPublishRuleVersion', { groupId: id, ...FLAT_STEPS, effectiveFrom: later });
    expect(second.body.result.group).toMatchObject({
      versionCount: 2,
      current: { version: 1 },
      upcoming: { version: 2, effectiveFrom: later, kind: 'flat', tiers: FLAT_STEPS.tiers },
    });
    expect(second.body.result.versions.map((version: { version: number }) => version.version)).toEqual([2, 1]);
    expect((await call('adminListRuleVersions', { groupId: id })).body.result).toEqual(second.body.result);
    expect((await auditOf('rule.published', id)).map((entry) => entry.details)).toEqual([
      expect.objectContaining({ version: 1, kind: 'percentage', percentBasisPoints: 3000, recurringMonths: 12 }),
      expect.objectContaining({ version: 2, effectiveFrom: later, kind: 'flat', tiers: FLAT_STEPS.tiers }),
    ]);
  });

  it('take the next numbers when published at once', async () => {
    const id = await createGroup();
    const answers = await Promise.all(
      [0, 1, 2].map(() => call('adminPublishRuleVersion', { groupId: id, ...FLAT_STEPS })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const { versions } = (await call('adminListRuleVersions', { groupId: id })).body.result;
    expect(versions.map((version: { version: number }) => version.version)).toEqual([3, 2, 1]);
  });

  const groupForRefusals = { id: '' };
  beforeAll(async () => {
    groupForRefusals.id = await createGroup(FLAT_STEPS);
  });

  const withRule = (change: Record<string, unknown>, base: Record<string, unknown> = FLAT_STEPS) => ({
    groupId: groupForRefusals.id,
    ...base,
    ...change,
  });
  const percentage = (change: Record<string, unknown>) => withRule(change, PERCENT_30_FOR_12_MONTHS);

  it.each([
    [
      'a percentage over 100',
      () => percentage({ percentBasisPoints: 10_001 }),
      'percentBasisPoints',
      'rules.errors.percentRange',
    ],
    [
      'a negative percentage',
      () => percentage({ percentBasisPoints: -1 }),
      'percentBasisPoints',
      'rules.errors.percentRange',
    ],
    [
      'a percentage with a fraction of a basis point',
      () => percentage({ percentBasisPoints: 12.5 }),
      'percentBasisPoints',
      'rules.errors.percentRange',
    ],
    [
      'a percentage without its rate',
      () => percentage({ percentBasisPoints: undefined }),
      'percentBasisPoints',
      'rules.errors.percentRange',
    ],
    ['0 recurring months', () => percentage({ recurringMonths: 0 }), 'recurringMonths', 'rules.errors.recurringRange'],
    [
      '121 recurring months',
      () => percentage({ recurringMonths: 121 }),
      'recurringMonths',
      'rules.errors.recurringRange',
    ],
    ['steps on a percentage', () => percentage({ tiers: FLAT_STEPS.tiers }), 'tiers', 'rules.errors.notForPercentage'],
    [
      'a negative amount',
      () => withRule({ tiers: [{ from: 0, cents: -1 }] }),
      'tiers.0.cents',
      'rules.errors.amountFormat',
    ],
    [
      'an amount of a fraction of a cent',
      () => withRule({ tiers: [{ from: 0, cents: 199.5 }] }),
      'tiers.0.cents',
      'rules.errors.amountFormat',
    ],
    [
      'an amount far too large',
      () => withRule({ tiers: [{ from: 0, cents: 10_000_001 }] }),
      'tiers.0.cents',
      'rules.errors.amountTooLarge',
    ],
    [
      'a first step not from 0',
      () => withRule({ tiers: [{ from: 1, cents: 200 }] }),
      'tiers.0.from',
      'rules.errors.tierFirstFromZero',
    ],
    [
      'a step that does not rise in conversions',
      () =>
        withRule({
          tiers: [
            { from: 0, cents: 200 },
            { from: 0, cents: 400 },
          ],
        }),
      'tiers.1.from',
      'rules.errors.tierFromNotRising',
    ],
    [
      'a step that does not rise in amount',
      () =>
        withRule({
          tiers: [
            { from: 0, cents: 400 },
            { from: 100, cents: 400 },
          ],
        }),
      'tiers.1.cents',
      'rules.errors.tierAmountNotRising',
    ],
    ['a flat rule without steps', () => withRule({ tiers: [] }), 'tiers', 'rules.errors.tiersRequired'],
    [
      'more than 10 steps',
      () => withRule({ tiers: Array.from({ length: 11 }, (_, index) => ({ from: index, cents: index + 1 })) }),
      'tiers',
      'rules.errors.tiersTooMany',
    ],
    [
      'a percentage on a flat rule',
      () => withRule({ percentBasisPoints: 1000 }),
      'percentBasisPoints',
      'rules.errors.notForFlat',
    ],
    ['a hold over 365 days', () => withRule({ holdDays: 366 }), 'holdDays', 'rules.errors.holdRange'],
    ['a negative hold', () => withRule({ holdDays: -1 }), 'holdDays', 'rules.errors.holdRange'],
    [
      'a negative minimum payout',
      () => withRule({ minimumPayoutCents: -100 }),
      'minimumPayoutCents',
      'rules.errors.minimumFormat',
    ],
    [
      'a minimum payout in fractions of a cent',
      () => withRule({ minimumPayoutCents: 20.5 }),
      'minimumPayoutCents',
      'rules.errors.minimumFormat',
    ],
    [
      'an effective time that is no time',
      () => withRule({ effectiveFrom: 'tomorrow' }),
      'effectiveFrom',
      'rules.errors.effectiveFormat',
    ],
    ['an unknown kind', () => withRule({ kind: 'bonus' }), 'kind', 'rules.errors.kind'],
  ])('refuse %s, writing nothing', async (_label, data, path, key) => {
    await expectRefused('adminPublishRuleVersion', data(), { path, key: `admin:${key}` });
  });

  it('refuse an effective time in the past or before the latest version, and an unknown group', async () => {
    const past = new Date(t.clock.now.getTime() - 60_000).toISOString();
    await expectRefused('adminPublishRuleVersion', withRule({ effectiveFrom: past }), REWARDS_REFUSALS.effectiveInPast);
    const nextWeek = new Date(t.clock.now.getTime() + 7 * DAY_MS).toISOString();
    expect((await call('adminPublishRuleVersion', withRule({ effectiveFrom: nextWeek }))).status).toBe(200);
    const tomorrow = new Date(t.clock.now.getTime() + DAY_MS).toISOString();
    await expectRefused(
      'adminPublishRuleVersion',
      withRule({ effectiveFrom: tomorrow }),
      REWARDS_REFUSALS.effectiveBeforePrevious,
    );
    await expectRefused(
      'adminPublishRuleVersion',
      { ...withRule({}), groupId: 'no-such-group' },
      REWARDS_REFUSALS.groupUnknown,
    );
  });
});

describe('moving an affiliate', () => {
  it('changes the rule their next events are priced by, and is audited with both groups', async () => {
    const id = await createGroup(PERCENT_30_FOR_12_MONTHS);
    const moved = await call('adminMoveAffiliateToGroup', { affiliateId: affiliate.affiliateId, groupId: id });
    expect(moved.body.result).toEqual({ affiliateId: affiliate.affiliateId, groupId: id, previousGroupId: 'default' });
    expect(await auditOf('affiliate.group-changed', affiliate.affiliateId)).toContainEqual({
      actor: operator.userId,
      details: { from: 'default', to: id },
    });
    const rule = await callFn(t, 'getAffiliateRule', null, affiliate.cookie);
    expect(rule.body.result).toMatchObject({
      specificationRule: false,
      rule: { version: 1, kind: 'percentage', percentBasisPoints: 3000, recurringMonths: 12 },
    });
    const profile = await call('adminGetAffiliate', { affiliateId: affiliate.affiliateId });
    expect(profile.body.result.affiliate).toMatchObject({ groupId: id, groupName: `Group ${id}` });
    const listed = (await call('adminListGroups', null)).body.result.groups.find(
      (group: { id: string }) => group.id === id,
    );
    expect(listed.affiliateCount).toBe(1);

    await expectRefused(
      'adminMoveAffiliateToGroup',
      { affiliateId: affiliate.affiliateId, groupId: id },
      REWARDS_REFUSALS.sameGroup,
    );
    await expectRefused(
      'adminMoveAffiliateToGroup',
      { affiliateId: affiliate.affiliateId, groupId: 'no-such-group' },
      REWARDS_REFUSALS.groupUnknown,
    );
    await expectRefused(
      'adminMoveAffiliateToGroup',
      { affiliateId: affiliate.affiliateId, groupId: 'Not A Slug' },
      { path: 'groupId', key: 'admin:groups.errors.idFormat' },
    );
    const ruleless = await createGroup();
    await expectRefused(
      'adminMoveAffiliateToGroup',
      { affiliateId: affiliate.affiliateId, groupId: ruleless },
      REWARDS_REFUSALS.noRuleInForce,
    );
    // A group whose first version is still to come has no rule in force either.
    const later = new Date(t.clock.now.getTime() + DAY_MS).toISOString();
    await call('adminPublishRuleVersion', { groupId: ruleless, ...FLAT_STEPS, effectiveFrom: later });
    await expectRefused(
      'adminMoveAffiliateToGroup',
      { affiliateId: affiliate.affiliateId, groupId: ruleless },
      REWARDS_REFUSALS.noRuleInForce,
    );
    const unknown = await call('adminMoveAffiliateToGroup', { affiliateId: 'no-such-affiliate', groupId: id });
    expect(unknown.body.error?.status).toBe('NOT_FOUND');
  });

  it('tells the affiliate of the default group that theirs is the specification’s rule', async () => {
    const newcomer = await createTestAffiliate(t);
    const rule = await callFn(t, 'getAffiliateRule', null, newcomer.cookie);
    expect(rule.body.result).toEqual({
      specificationRule: true,
      rule: {
        version: 1,
        effectiveFrom: '1970-01-01T00:00:00.000Z',
        kind: 'flat',
        tiers: [
          { from: 0, cents: 200 },
          { from: 100, cents: 400 },
        ],
        percentBasisPoints: null,
        recurringMonths: null,
        holdDays: 30,
        minimumPayoutCents: 2000,
      },
    });
  });
});

describe('a version published now', () => {
  it('does not re-price the commissions already earned, and each says why it is its amount', async () => {
    const id = await createGroup(FLAT_STEPS);
    const earner = await createTestAffiliate(t, { firstName: 'Emil' });
    await call('adminMoveAffiliateToGroup', { affiliateId: earner.affiliateId, groupId: id });
    const { code } = await insertCode(t, earner.affiliateId);
    const before = t.clock.now;
    expect((await postWebhook(t, purchaseEvent(await attributedUser(t, code), {}, before))).body.outcome).toBe(
      'conversion',
    );

    t.clock.advance(HOUR_MS);
    const published = await call('adminPublishRuleVersion', { groupId: id, ...PERCENT_30_FOR_12_MONTHS });
    expect(published.body.result.group.current.version).toBe(2);
    t.clock.advance(HOUR_MS);
    const after = t.clock.now;
    await postWebhook(t, purchaseEvent(await attributedUser(t, code), {}, after));
    // A purchase from before the change that arrives after it keeps the version in force when it occurred.
    await postWebhook(t, purchaseEvent(await attributedUser(t, code), {}, new Date(before.getTime() + 60_000)));

    const { rows } = await t.database.sql.query<{ cents: number; version: number; pricing: unknown }>(
      `SELECT c.commission_cents::int AS cents, r.version, c.pricing FROM conversions c
       JOIN reward_rules r ON r.id = c.rule_id WHERE c.affiliate_id = $1 ORDER BY c.id`,
      [earner.affiliateId],
    );
    expect(rows).toEqual([
      { cents: 300, version: 1, pricing: { kind: 'flat', ruleVersion: 1, qualifiedBefore: 0, tier: 0 } },
      // 30 % of $8.49 (a $9.99 purchase, the store keeping 15 %).
      {
        cents: 255,
        version: 2,
        pricing: { kind: 'percentage', ruleVersion: 2, proceedsCents: 849, percentBasisPoints: 3000 },
      },
      // Counted after the two before it were recorded: two qualified conversions before it.
      { cents: 300, version: 1, pricing: { kind: 'flat', ruleVersion: 1, qualifiedBefore: 2, tier: 0 } },
    ]);

    const listed = await call('adminListConversions', { affiliateId: earner.affiliateId });
    const whys = listed.body.result.items.map((item: { commissionCents: number; why: unknown }) => [
      item.commissionCents,
      item.why,
    ]);
    expect(whys).toEqual([
      [
        255,
        {
          commissionKind: 'first-purchase',
          defaultGroup: false,
          groupName: `Group ${id}`,
          ruleVersion: 2,
          pricing: { kind: 'percentage', proceedsCents: 849, percentBasisPoints: 3000 },
        },
      ],
      [
        300,
        {
          commissionKind: 'first-purchase',
          defaultGroup: false,
          groupName: `Group ${id}`,
          ruleVersion: 1,
          pricing: { kind: 'flat', qualifiedBefore: 2, step: 1, steps: 2 },
        },
      ],
      [
        300,
        {
          commissionKind: 'first-purchase',
          defaultGroup: false,
          groupName: `Group ${id}`,
          ruleVersion: 1,
          pricing: { kind: 'flat', qualifiedBefore: 0, step: 1, steps: 2 },
        },
      ],
    ]);

    // The affiliate reads the same explanation, without the operators' name of the group.
    const own = await callFn(t, 'getAffiliateCommissions', null, earner.cookie);
    expect(own.body.result.commissions).toHaveLength(3);
    expect(own.body.result.commissions[0]).toMatchObject({
      amountCents: 255,
      status: 'pending',
      why: { groupName: null, ruleVersion: 2, pricing: { kind: 'percentage' } },
    });
    const others = await callFn(t, 'getAffiliateCommissions', null, affiliate.cookie);
    expect(others.body.result.commissions).toEqual([]);
  });

  it('prices a late purchase from before the affiliate joined a new group by that group’s first version', async () => {
    const id = await createGroup(FLAT_STEPS);
    const joiner = await createTestAffiliate(t);
    await call('adminMoveAffiliateToGroup', { affiliateId: joiner.affiliateId, groupId: id });
    const { code } = await insertCode(t, joiner.affiliateId);
    const lastWeek = new Date(t.clock.now.getTime() - 7 * DAY_MS);
    expect((await postWebhook(t, purchaseEvent(await attributedUser(t, code), {}, lastWeek))).body.outcome).toBe(
      'conversion',
    );
    const { rows } = await t.database.sql.query<{ cents: number; version: number }>(
      `SELECT c.commission_cents::int AS cents, r.version FROM conversions c JOIN reward_rules r ON r.id = c.rule_id
       WHERE c.affiliate_id = $1`,
      [joiner.affiliateId],
    );
    expect(rows).toEqual([{ cents: 300, version: 1 }]);
  });
});

describe('authorisation', () => {
  it.each([
    ['adminListGroups', null],
    ['adminCreateGroup', { id: 'by-affiliate', name: 'Mine' }],
    ['adminRenameGroup', { groupId: 'default', name: 'Mine' }],
    ['adminArchiveGroup', { groupId: 'default' }],
    ['adminListRuleVersions', { groupId: 'default' }],
    ['adminPublishRuleVersion', { groupId: 'default', ...PERCENT_30_FOR_12_MONTHS }],
    ['adminMoveAffiliateToGroup', { affiliateId: 'someone', groupId: 'default' }],
  ])('%s is refused to an affiliate (permission-denied), writing nothing', async (name, data) => {
    const before = await snapshot();
    const response = await callFn(t, name, data, affiliate.cookie);
    expect([response.status, response.body.error?.status]).toEqual([403, 'PERMISSION_DENIED']);
    expect(await snapshot()).toBe(before);
  });
});
