/// <reference types="node" />
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { checkForm } from '../callable/field-errors.ts';
import { LANGUAGES } from '../site/constants.ts';
import { basisPointsFromPercent, centsFromDollars, dollarsText, percentText } from './form-values.ts';
import {
  REWARDS_REFUSALS,
  adminCreateCampaignRateSchema,
  adminCreateGroupSchema,
  adminPublishRuleVersionSchema,
} from './schemas.ts';
import { SPECIFICATION_RULE, isSpecificationRule } from './specification-rule.ts';
import { nextVersion, versionInForce, versionStanding } from './versions.ts';

// The operators' forms for groups, rules and campaigns (ADR 009): what each refuses and with which
// key, the conversions of what an operator types, and a text in both languages for every key the
// schemas and the server's refusals answer.

const I18N = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../i18n');

function translation(lang: string, key: string): unknown {
  const [ns, rest] = key.split(':') as [string, string];
  const json: unknown = JSON.parse(readFileSync(path.join(I18N, lang, `${ns}.json`), 'utf8'));
  return rest.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], json);
}

const seen = new Set<string>(Object.values(REWARDS_REFUSALS).map((refusal) => refusal.key));

function errors(schema: z.ZodMiniType, values: unknown) {
  const checked = checkForm(schema, values);
  for (const error of checked.errors) seen.add(error.key);
  return checked.errors;
}

const percentage = {
  groupId: 'creators',
  kind: 'percentage',
  percentBasisPoints: 3000,
  recurringMonths: 12,
  holdDays: 30,
  minimumPayoutCents: 2000,
};
const flat = {
  groupId: 'creators',
  kind: 'flat',
  tiers: [
    { from: 0, cents: 200 },
    { from: 100, cents: 400 },
  ],
  holdDays: 30,
  minimumPayoutCents: 2000,
};

describe('a rule version', () => {
  it('accepts both kinds, with or without an effective time', () => {
    expect(errors(adminPublishRuleVersionSchema, percentage)).toEqual([]);
    expect(errors(adminPublishRuleVersionSchema, { ...percentage, recurringMonths: null })).toEqual([]);
    expect(errors(adminPublishRuleVersionSchema, { ...flat, effectiveFrom: '2027-01-01T00:00:00.000Z' })).toEqual([]);
    expect(
      errors(adminPublishRuleVersionSchema, { ...flat, tiers: [{ from: 0, cents: 0 }], minimumPayoutCents: 0 }),
    ).toEqual([]);
  });

  it.each([
    ['percentBasisPoints', { ...percentage, percentBasisPoints: 10_001 }, 'admin:rules.errors.percentRange'],
    ['percentBasisPoints', { ...percentage, percentBasisPoints: -1 }, 'admin:rules.errors.percentRange'],
    ['recurringMonths', { ...percentage, recurringMonths: 121 }, 'admin:rules.errors.recurringRange'],
    ['tiers', { ...percentage, tiers: flat.tiers }, 'admin:rules.errors.notForPercentage'],
    [
      'tiers.1.from',
      {
        ...flat,
        tiers: [
          { from: 0, cents: 200 },
          { from: 0, cents: 300 },
        ],
      },
      'admin:rules.errors.tierFromNotRising',
    ],
    [
      'tiers.1.cents',
      {
        ...flat,
        tiers: [
          { from: 0, cents: 200 },
          { from: 5, cents: 100 },
        ],
      },
      'admin:rules.errors.tierAmountNotRising',
    ],
    ['tiers.0.from', { ...flat, tiers: [{ from: 3, cents: 200 }] }, 'admin:rules.errors.tierFirstFromZero'],
    ['tiers.0.cents', { ...flat, tiers: [{ from: 0, cents: -1 }] }, 'admin:rules.errors.amountFormat'],
    ['tiers.0.cents', { ...flat, tiers: [{ from: 0, cents: 1.5 }] }, 'admin:rules.errors.amountFormat'],
    ['tiers', { ...flat, tiers: [] }, 'admin:rules.errors.tiersRequired'],
    ['recurringMonths', { ...flat, recurringMonths: 12 }, 'admin:rules.errors.notForFlat'],
    ['holdDays', { ...flat, holdDays: 366 }, 'admin:rules.errors.holdRange'],
    ['minimumPayoutCents', { ...flat, minimumPayoutCents: -1 }, 'admin:rules.errors.minimumFormat'],
    ['minimumPayoutCents', { ...flat, minimumPayoutCents: 10_000_001 }, 'admin:rules.errors.amountTooLarge'],
    ['effectiveFrom', { ...flat, effectiveFrom: '2027-01-01' }, 'admin:rules.errors.effectiveFormat'],
    ['groupId', { ...flat, groupId: 'Creators!' }, 'admin:groups.errors.idFormat'],
    ['kind', { ...flat, kind: 'bonus' }, 'admin:rules.errors.kind'],
  ])('refuses %s: %j → %s', (field, values, key) => {
    expect(errors(adminPublishRuleVersionSchema, values)).toContainEqual({ path: field, key });
  });

  it('reports every step that does not rise at once', () => {
    const steps = [
      { from: 0, cents: 500 },
      { from: 0, cents: 400 },
    ];
    expect(errors(adminPublishRuleVersionSchema, { ...flat, tiers: steps, holdDays: 400 })).toEqual([
      { path: 'holdDays', key: 'admin:rules.errors.holdRange' },
      { path: 'tiers.1.from', key: 'admin:rules.errors.tierFromNotRising' },
      { path: 'tiers.1.cents', key: 'admin:rules.errors.tierAmountNotRising' },
    ]);
  });
});

describe('a group and a campaign rate', () => {
  it.each([
    ['id', { id: 'Creators', name: 'Creators' }, 'admin:groups.errors.idFormat'],
    ['id', { id: '-creators', name: 'Creators' }, 'admin:groups.errors.idFormat'],
    ['name', { id: 'creators', name: ' ' }, 'admin:groups.errors.nameRequired'],
    ['name', { id: 'creators', name: 'x'.repeat(81) }, 'admin:groups.errors.nameTooLong'],
    ['name', { id: 'creators', name: 'a\u0000b' }, 'admin:groups.errors.nameInvalid'],
  ])('a group refuses %s: %j → %s', (field, values, key) => {
    expect(errors(adminCreateGroupSchema, values)).toContainEqual({ path: field, key });
  });

  const rate = { code: 'ABCD1234', from: '2027-01-01', until: '2027-01-31', kind: 'flat', amountCents: 1000 };
  it.each([
    ['until', { ...rate, until: '2026-12-31' }, 'admin:campaigns.errors.rangeReversed'],
    ['from', { ...rate, from: '2027-13-01' }, 'admin:campaigns.errors.dayFormat'],
    ['amountCents', { ...rate, amountCents: undefined }, 'admin:rules.errors.amountFormat'],
    ['percentBasisPoints', { ...rate, kind: 'percentage', amountCents: undefined }, 'admin:rules.errors.percentRange'],
    ['code', { ...rate, code: '' }, 'admin:campaigns.errors.codeUnknown'],
  ])('a campaign rate refuses %s: %j → %s', (field, values, key) => {
    expect(errors(adminCreateCampaignRateSchema, values)).toContainEqual({ path: field, key });
  });
});

describe('what an operator types', () => {
  it.each([
    ['2', 200],
    ['2.5', 250],
    ['2,50', 250],
    ['0.29', 29],
    [' 10 ', 1000],
    ['-1', null],
    ['2.505', null],
    ['two', null],
    ['', null],
  ])('dollars %j are %j cents', (text, cents) => {
    expect(centsFromDollars(text)).toBe(cents);
  });

  it('reads percentages with at most two decimals, and writes both back', () => {
    expect(basisPointsFromPercent('30')).toBe(3000);
    expect(basisPointsFromPercent('12,75')).toBe(1275);
    expect(basisPointsFromPercent('12.755')).toBeNull();
    expect(basisPointsFromPercent('150')).toBe(15_000); // the schema says it is over 100
    expect([dollarsText(250), dollarsText(200), dollarsText(5), percentText(1250)]).toEqual([
      '2.50',
      '2',
      '0.05',
      '12.50',
    ]);
  });
});

describe('versions', () => {
  const versions = [
    { version: 3, effectiveFrom: '2027-02-01T00:00:00.000Z' },
    { version: 2, effectiveFrom: '2026-06-01T00:00:00.000Z' },
    { version: 1, effectiveFrom: '2026-06-01T00:00:00.000Z' },
  ];
  it('in force is the latest effective, the later version for the same instant', () => {
    expect(versionInForce(versions, new Date('2026-05-31T23:59:59.000Z'))).toBeNull();
    expect(versionInForce(versions, new Date('2026-06-01T00:00:00.000Z'))?.version).toBe(2);
    expect(versionInForce(versions, new Date('2027-03-01T00:00:00.000Z'))?.version).toBe(3);
    expect(nextVersion(versions, new Date('2026-07-01T00:00:00.000Z'))?.version).toBe(3);
    expect(nextVersion(versions, new Date('2027-03-01T00:00:00.000Z'))).toBeNull();
    const at = new Date('2026-07-01T00:00:00.000Z');
    expect(versions.map((version) => versionStanding(versions, version, at))).toEqual(['upcoming', 'current', 'past']);
  });

  it('knows the specification’s rule', () => {
    expect(isSpecificationRule(SPECIFICATION_RULE)).toBe(true);
    expect(isSpecificationRule({ ...SPECIFICATION_RULE, holdDays: 14 })).toBe(false);
    expect(isSpecificationRule({ ...SPECIFICATION_RULE, tiers: [{ from: 0, cents: 200 }] })).toBe(false);
  });
});

describe('translations', () => {
  it('has a text in both languages for every key the forms and the server answer', () => {
    expect(seen.size).toBeGreaterThan(20);
    for (const lang of LANGUAGES) {
      const missing = [...seen].filter((key) => typeof translation(lang, key) !== 'string');
      expect({ lang, missing }).toEqual({ lang, missing: [] });
    }
  });
});
