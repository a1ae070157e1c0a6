import { describe, expect, it } from 'vitest';
import type { CommissionWhy, RewardRuleTerms } from '@skanova/shared/rewards/functions';
import { SPECIFICATION_RULE } from '@skanova/shared/rewards/specification-rule';
import enAffiliate from '@skanova/shared/i18n/en/affiliate.json';
import frAffiliate from '@skanova/shared/i18n/fr/affiliate.json';
import { createTestI18n } from '../test-support/i18n';
import { commissionInWords, nextStep, ruleInWords } from './reward-words';

// A rule and a commission's pricing in words, in both languages, from the translation files
// themselves (docs/product/money.md#operators-groups-rules-and-campaigns).

const i18n = {
  en: createTestI18n('en', { en: { affiliate: enAffiliate } }),
  fr: createTestI18n('fr', { fr: { affiliate: frAffiliate } }),
};
const words = (rule: RewardRuleTerms, lang: 'en' | 'fr') => ruleInWords(rule, i18n[lang].t, lang);
const why = (amount: number, explanation: CommissionWhy, lang: 'en' | 'fr') =>
  commissionInWords(amount, explanation, i18n[lang].t, lang);
/** French puts narrow no-break spaces before % and $: compared with plain spaces. */
const plain = (text: string | string[]) =>
  (Array.isArray(text) ? text : [text]).map((line) => line.replace(/[\u00a0\u202f]/g, ' '));

const creators: RewardRuleTerms = {
  kind: 'percentage',
  tiers: null,
  percentBasisPoints: 3000,
  recurringMonths: 12,
  holdDays: 30,
  minimumPayoutCents: 2000,
};

describe('a rule in words', () => {
  it('writes a percentage on renewals for a number of months', () => {
    expect(words(creators, 'en')).toEqual([
      "30% of the proceeds of each first paid subscription and of its renewals for 12 months after it (the price after the app store's commission).",
      'Each commission is approved 30 days after the purchase.',
      'Approved earnings are paid on the 15th of each month once your approved balance reaches $20.',
    ]);
    expect(plain(words(creators, 'fr'))).toEqual([
      '30 % des recettes de chaque premier abonnement payant et de ses renouvellements pendant 12 mois après lui (le prix après la commission du store).',
      "Chaque commission est validée 30 jours après l'achat.",
      'Les gains validés sont payés le 15 de chaque mois dès que votre solde validé atteint 20 $US.',
    ]);
  });

  it('writes a percentage on the first purchase only, one month, one day, no minimum', () => {
    const rule = { ...creators, percentBasisPoints: 1250, recurringMonths: null, holdDays: 1, minimumPayoutCents: 0 };
    expect(words(rule, 'en')).toEqual([
      "12.5% of the proceeds of each first paid subscription (the price after the app store's commission).",
      'Each commission is approved 1 day after the purchase.',
      'Approved earnings are paid on the 15th of each month, whatever their amount.',
    ]);
    expect(words({ ...creators, recurringMonths: 1, holdDays: 0 }, 'en').slice(0, 2)).toEqual([
      "30% of the proceeds of each first paid subscription and of its renewals for 1 month after it (the price after the app store's commission).",
      'Each commission is approved at once.',
    ]);
    expect(plain(words(rule, 'fr'))[2]).toBe(
      'Les gains validés sont payés le 15 de chaque mois, quel que soit leur montant.',
    );
  });

  it('writes flat steps as a list', () => {
    const steps: RewardRuleTerms = {
      ...SPECIFICATION_RULE,
      tiers: [
        { from: 0, cents: 300 },
        { from: 1, cents: 450 },
        { from: 500, cents: 600 },
      ],
      holdDays: 14,
      minimumPayoutCents: 1050,
    };
    expect(words(steps, 'en')).toEqual([
      '$3 per first paid subscription, then $4.50 from 1 qualified conversion and $6 from 500 qualified conversions.',
      'Each commission is approved 14 days after the purchase.',
      'Approved earnings are paid on the 15th of each month once your approved balance reaches $10.50.',
    ]);
    expect(plain(words(steps, 'fr'))[0]).toBe(
      '3 $US par premier abonnement payant, puis 4,50 $US à partir de 1 conversion qualifiée et 6 $US à partir de 500 conversions qualifiées.',
    );
    expect(words({ ...steps, tiers: [{ from: 0, cents: 500 }] }, 'en')[0]).toBe('$5 per first paid subscription.');
    expect(nextStep(steps, 120)).toEqual({ count: 380, amount: 600 });
    expect(nextStep(steps, 500)).toBeNull();
    expect(nextStep(creators, 0)).toBeNull();
  });
});

describe('why this amount', () => {
  const base = {
    commissionKind: 'first-purchase',
    defaultGroup: false,
    groupName: 'creators',
    ruleVersion: 2,
  } as const;

  it('names the step and the conversions counted before it', () => {
    const flat: CommissionWhy = {
      ...base,
      defaultGroup: true,
      groupName: 'Default',
      ruleVersion: 1,
      pricing: { kind: 'flat', qualifiedBefore: 12, step: 1, steps: 2 },
    };
    expect(why(200, flat, 'en')).toBe('$2 — default rule v1, 12 qualified conversions before it (step 1 of 2)');
    expect(plain(why(200, flat, 'fr'))).toEqual([
      '2 $US — règle par défaut v1, 12 conversions qualifiées avant elle (palier 1 sur 2)',
    ]);
    const single = { ...flat, pricing: { kind: 'flat' as const, qualifiedBefore: 0, step: 1, steps: 1 } };
    expect(why(300, { ...single, defaultGroup: false, groupName: 'creators' }, 'en')).toBe('$3 — creators v1');
    const migrated = { ...flat, pricing: { kind: 'flat' as const, qualifiedBefore: null, step: 2, steps: 2 } };
    expect(why(400, migrated, 'en')).toBe('$4 — default rule v1 (step 2 of 2)');
    expect(why(200, { ...flat, pricing: null }, 'en')).toBe('$2 — default rule v1');
  });

  it('names the share of the proceeds, and the campaign rate', () => {
    const percentage: CommissionWhy = {
      ...base,
      pricing: { kind: 'percentage', proceedsCents: 849, percentBasisPoints: 3000 },
    };
    expect(why(255, percentage, 'en')).toBe('30% of $8.49 proceeds — creators v2');
    expect(plain(why(255, percentage, 'fr'))).toEqual(['30 % de 8,49 $US de recettes — creators v2']);
    // The affiliate's own view names no group.
    expect(why(255, { ...percentage, groupName: null }, 'en')).toBe('30% of $8.49 proceeds — rule v2');
    const campaign: CommissionWhy = {
      ...base,
      pricing: {
        kind: 'campaign',
        campaignRateId: '3',
        amountCents: 1000,
        proceedsCents: null,
        percentBasisPoints: null,
      },
    };
    expect(why(1000, campaign, 'en')).toBe('campaign rate #3: $10');
    expect(plain(why(1000, campaign, 'fr'))).toEqual(['tarif de campagne n° 3 : 10 $US']);
    const campaignShare: CommissionWhy = {
      ...base,
      pricing: {
        kind: 'campaign',
        campaignRateId: '4',
        amountCents: null,
        proceedsCents: 849,
        percentBasisPoints: 5000,
      },
    };
    expect(why(425, campaignShare, 'en')).toBe('campaign rate #4: 50% of $8.49 proceeds');
  });
});
