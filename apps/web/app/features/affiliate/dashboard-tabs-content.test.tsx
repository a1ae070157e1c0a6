import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PaymentMethodSummary } from '@skanova/shared/affiliate/payment-method';
import type { AffiliateStats, AffiliateTimeline, PayoutSummary, UnpaidEarnings } from '@skanova/shared/affiliate/stats';
import type { AffiliateCommission, AffiliateRule } from '@skanova/shared/rewards/functions';
import { SPECIFICATION_RULE } from '@skanova/shared/rewards/specification-rule';
import enAffiliate from '@skanova/shared/i18n/en/affiliate.json';
import frAffiliate from '@skanova/shared/i18n/fr/affiliate.json';
import enCommon from '@skanova/shared/i18n/en/common.json';
import enDashboard from '@skanova/shared/i18n/en/dashboard.json';
import enMarketing from '@skanova/shared/i18n/en/marketing.json';
import enPayment from '@skanova/shared/i18n/en/payment.json';
import frCommon from '@skanova/shared/i18n/fr/common.json';
import frDashboard from '@skanova/shared/i18n/fr/dashboard.json';
import frMarketing from '@skanova/shared/i18n/fr/marketing.json';
import frPayment from '@skanova/shared/i18n/fr/payment.json';
import { I18nextProvider } from '../../lib/react-i18n';
import { LinksTab } from './links-tab';
import { OverviewTab } from './overview-tab';
import { PaymentsTab } from './payments-tab';
import { dashboardKeys, useAffiliateStats } from './queries';
import { createTestI18n } from '../../test-support/i18n';

// The tabs drawn from server answers that a new account never has (premium rate, payouts, codes):
// the answers are put in the query cache, so nothing is fetched.

afterEach(cleanup);

const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');

const STATS: AffiliateStats = {
  totalEarnings: 460,
  totalEarningsCents: 46000,
  unpaidEarnings: 36,
  unpaidEarningsCents: 3600,
  totalConversions: 130,
  totalClicks: 1040,
  conversionRate: 12.5,
  last30DaysCount: 9,
  hasPremiumRate: true,
  progressToTier: 100,
  currentCommissionRate: 4,
  referralCodes: [
    {
      code: 'K7M2QX4P',
      description: 'Instagram bio',
      clickCount: 1000,
      conversionCount: 128,
      link: 'https://example.test/download?ref=K7M2QX4P',
      createdAt: '2025-01-01T00:00:00Z',
    },
    {
      code: 'B3N8WR5T',
      description: null,
      clickCount: 40,
      conversionCount: 2,
      link: 'https://example.test/download?ref=B3N8WR5T',
      createdAt: '2025-02-01T00:00:00Z',
    },
  ],
  activeVisitors: 3,
  nextPayout: { date: '2025-07-15T00:00:00.000Z', payableCents: 2400, approvedUnpaidCents: 2400 },
  underReviewCents: 0,
  status: 'active',
};

const TIMELINE: AffiliateTimeline = {
  days: [
    { date: '2025-06-01', clicks: 12, conversions: 1 },
    { date: '2025-06-03', clicks: 30, conversions: 2 },
  ],
};

const PAYOUTS: PayoutSummary[] = [
  {
    id: 'p2',
    periodStart: '2025-05-01',
    periodEnd: '2025-05-31',
    amountCents: 2550,
    currency: 'USD',
    method: 'bank_transfer',
    status: 'scheduled',
    scheduledFor: '2025-06-15',
    paidAt: null,
  },
  {
    id: 'p1',
    periodStart: '2025-04-01',
    periodEnd: '2025-04-30',
    amountCents: 4000,
    currency: 'USD',
    method: 'paypal',
    status: 'paid',
    scheduledFor: '2025-05-15',
    paidAt: '2025-05-16T09:00:00.000Z',
  },
  {
    // A SEPA transfer: earned in dollars, paid in euros at the operator's rate.
    id: 'p0',
    periodStart: '2025-03-01',
    periodEnd: '2025-03-31',
    amountCents: 3000,
    currency: 'USD',
    amountPaidCents: 2760,
    paidCurrency: 'EUR',
    method: 'bank_transfer',
    status: 'sent',
    scheduledFor: '2025-04-15',
    sentAt: '2025-04-15T08:00:00.000Z',
    paidAt: null,
  },
];

const METHOD: PaymentMethodSummary = {
  type: 'paypal',
  configured: true,
  paypalEmail: 'ada@example.com',
  updatedAt: '2025-03-02T10:00:00.000Z',
};

const SPECIFICATION: AffiliateRule = {
  specificationRule: true,
  rule: { ...SPECIFICATION_RULE, version: 1, effectiveFrom: '1970-01-01T00:00:00.000Z' },
};

/** A creators' group: 30 % of the proceeds for 12 months, a 14-day hold, $50 minimum, since June 2025. */
const CREATORS: AffiliateRule = {
  specificationRule: false,
  rule: {
    kind: 'percentage',
    tiers: null,
    percentBasisPoints: 3000,
    recurringMonths: 12,
    holdDays: 14,
    minimumPayoutCents: 5000,
    version: 2,
    effectiveFrom: '2025-06-01T00:00:00.000Z',
  },
};

/** STATS' unpaid earnings (36.00) by where they stand: 24.00 paid on 15 July, the rest later. */
const UNPAID: UnpaidEarnings = {
  unpaidCents: 3600,
  nextPayday: '2025-07-15',
  cutoff: '2025-07-01T00:00:00.000Z',
  minimumCents: 2000,
  payableOnNextPaydayCents: 2400,
  payableLaterCents: 400,
  followingPayday: '2025-08-15',
  pendingCents: 800,
  pending: [
    { payableOn: '2025-07-20', payday: '2025-08-15', cents: 200, commissions: 1 },
    { payableOn: '2025-08-02', payday: '2025-09-15', cents: 600, commissions: 3 },
  ],
  underReviewCents: 0,
  inPayoutCents: 0,
};

const COMMISSIONS: AffiliateCommission[] = [
  {
    id: '12',
    occurredAt: '2025-06-20T10:00:00.000Z',
    amountCents: 255,
    status: 'pending',
    why: {
      commissionKind: 'renewal',
      defaultGroup: false,
      groupName: null,
      ruleVersion: 2,
      pricing: { kind: 'percentage', proceedsCents: 849, percentBasisPoints: 3000 },
    },
  },
  {
    id: '11',
    occurredAt: '2025-05-02T10:00:00.000Z',
    amountCents: 200,
    status: 'paid',
    why: {
      commissionKind: 'first-purchase',
      defaultGroup: true,
      groupName: null,
      ruleVersion: 1,
      pricing: { kind: 'flat', qualifiedBefore: 12, step: 1, steps: 2 },
    },
  },
];

async function renderWithData(
  lang: 'fr' | 'en',
  ui: (stats: ReturnType<typeof useAffiliateStats>) => ReactNode,
  stats: AffiliateStats = STATS,
  rule: AffiliateRule = SPECIFICATION,
  unpaid: UnpaidEarnings = UNPAID,
) {
  const i18n = createTestI18n(lang, {
    fr: {
      common: frCommon,
      dashboard: frDashboard,
      payment: frPayment,
      marketing: frMarketing,
      affiliate: frAffiliate,
    },
    en: {
      common: enCommon,
      dashboard: enDashboard,
      payment: enPayment,
      marketing: enMarketing,
      affiliate: enAffiliate,
    },
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  queryClient.setQueryData(dashboardKeys.stats, stats);
  queryClient.setQueryData(dashboardKeys.timeline, TIMELINE);
  queryClient.setQueryData(dashboardKeys.payouts, PAYOUTS);
  queryClient.setQueryData(dashboardKeys.paymentMethod, METHOD);
  queryClient.setQueryData(dashboardKeys.rule, rule);
  queryClient.setQueryData(dashboardKeys.commissions, COMMISSIONS);
  queryClient.setQueryData(dashboardKeys.unpaidEarnings, unpaid);
  function WithStats() {
    return <>{ui(useAffiliateStats())}</>;
  }
  render(
    <MemoryRouter>
      <QueryClientProvider client={queryClient}>
        <I18nextProvider i18n={i18n}>
          <WithStats />
        </I18nextProvider>
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

const noop = () => undefined;

describe('OverviewTab', () => {
  it('invites a new affiliate without a code to create the first one, and only them', async () => {
    const create = vi.fn();
    await renderWithData('fr', (stats) => <OverviewTab stats={stats} onCreateFirstLink={create} />, {
      ...STATS,
      referralCodes: [],
    });
    const invitation = within(screen.getByRole('region', { name: frDashboard.links.first.title }));
    fireEvent.click(invitation.getByRole('button', { name: frDashboard.links.first.submit }));
    expect(create).toHaveBeenCalledOnce();
    cleanup();
    // An application waiting for an operator cannot create links yet: no invitation.
    await renderWithData('fr', (stats) => <OverviewTab stats={stats} onCreateFirstLink={create} />, {
      ...STATS,
      referralCodes: [],
      status: 'pending',
    });
    expect(screen.queryByRole('region', { name: frDashboard.links.first.title })).toBeNull();
    cleanup();
    await renderWithData('fr', (stats) => <OverviewTab stats={stats} onCreateFirstLink={create} />);
    expect(screen.queryByRole('region', { name: frDashboard.links.first.title })).toBeNull();
  });

  it('shows the six stats in the page language', async () => {
    await renderWithData('fr', (stats) => <OverviewTab stats={stats} onCreateFirstLink={noop} />);
    const value = (label: string) => plain(screen.getByText(label).nextElementSibling?.textContent ?? null);
    expect(value(frDashboard.overview.stats.totalEarnings)).toBe('460,00 $US');
    expect(value(frDashboard.overview.stats.unpaidEarnings)).toBe('36,00 $US');
    expect(value(frDashboard.overview.stats.totalConversions)).toBe('130');
    expect(value(frDashboard.overview.stats.totalClicks)).toBe('1 040');
    expect(value(frDashboard.overview.stats.conversionRate)).toBe('12,5 %');
    expect(value(frDashboard.overview.stats.last30Days.replace('{{days}}', '30'))).toBe('9');
  });

  it('congratulates once the premium rate is reached, with a full bar and the premium rate', async () => {
    await renderWithData('en', (stats) => <OverviewTab stats={stats} onCreateFirstLink={noop} />);
    expect(screen.getByRole('heading', { name: enDashboard.overview.premium.achievedTitle })).toBeTruthy();
    expect(screen.getByText('Congratulations! You now earn $4.00 for every new conversion.')).toBeTruthy();
    const bar = screen.getByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('100');
    expect(bar.getAttribute('aria-valuetext')).toBe('100 of 100 qualified conversions');
    expect(screen.getByText('$4.00', { selector: 'strong' })).toBeTruthy();
    expect(within(screen.getByRole('region', { name: enDashboard.overview.live.title })).getByText('3')).toBeTruthy();
  });

  it('writes out a rule that is not the specification’s, in place of the premium panel', async () => {
    await renderWithData('en', (stats) => <OverviewTab stats={stats} onCreateFirstLink={noop} />, STATS, CREATORS);
    expect(screen.queryByRole('progressbar')).toBeNull();
    const rule = within(screen.getByRole('region', { name: enAffiliate.rule.title }));
    expect(rule.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      "30% of the proceeds of each first paid subscription and of its renewals for 12 months after it (the price after the app store's commission).",
      'Each commission is approved 14 days after the purchase.',
      'Approved earnings are paid on the 15th of each month once your approved balance reaches $50.',
    ]);
    expect(rule.getByText('In force since June 1, 2025.')).toBeTruthy();
  });

  it('says how far the next step of a flat rule is', async () => {
    const steps: AffiliateRule = {
      specificationRule: false,
      rule: {
        ...SPECIFICATION_RULE,
        tiers: [
          { from: 0, cents: 300 },
          { from: 200, cents: 500 },
        ],
        version: 1,
        effectiveFrom: '2025-06-01T00:00:00.000Z',
      },
    };
    await renderWithData('fr', (stats) => <OverviewTab stats={stats} onCreateFirstLink={noop} />, STATS, steps);
    const rule = within(screen.getByRole('region', { name: frAffiliate.rule.title }));
    expect(plain(rule.getAllByRole('listitem')[0]!.textContent)).toBe(
      '3 $US par premier abonnement payant, puis 5 $US à partir de 200 conversions qualifiées.',
    );
    expect(plain(rule.getByText(/Encore 70/).textContent)).toBe(
      'Encore 70 conversions qualifiées pour gagner 5 $US par abonnement.',
    );
  });

  it('draws the days, the missing one as zero, and gives the same data as text', async () => {
    await renderWithData('en', (stats) => <OverviewTab stats={stats} onCreateFirstLink={noop} />);
    const chart = screen.getByRole('img', { name: 'Clicks and conversions, last 30 days' });
    expect(chart.querySelectorAll('.bar-chart__bar--clicks')).toHaveLength(3);
    expect(chart.querySelectorAll('.bar-chart__bar--conversions')).toHaveLength(3);
    const heights = [...chart.querySelectorAll('.bar-chart__bar--clicks')].map((bar) =>
      Number(bar.getAttribute('height')),
    );
    expect(heights[1]).toBe(0);
    expect(heights[2]).toBeGreaterThan(heights[0]!);
    expect(
      screen.getByText(
        /Total over the last 30 days – clicks: 42, conversions: 3\. Busiest day: June 3, 2025 \(clicks: 30\)\./,
      ),
    ).toBeTruthy();
    const rows = within(screen.getByRole('table')).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'DateClicksConversions',
      'June 1, 2025121',
      'June 2, 202500',
      'June 3, 2025302',
    ]);
  });
});

describe('LinksTab', () => {
  it('lists the codes with a dash for no description, and the first code as the example', async () => {
    await renderWithData('en', (stats) => <LinksTab stats={stats} />);
    const rows = within(screen.getByRole('table')).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]!).getByText('Instagram bio')).toBeTruthy();
    expect(rows[2]!.textContent).toContain('—');
    expect(within(rows[2]!).getByRole('button', { name: 'Copy link B3N8WR5T' })).toBeTruthy();
    expect(screen.getByText('Links used: 2 of 10')).toBeTruthy();
    expect(screen.getAllByText('https://example.test/download?ref=K7M2QX4P').length).toBeGreaterThan(0);
    expect(
      (screen.getByRole('button', { name: enDashboard.links.generate.submit }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });

  it('turns the form into the invitation to create the first link, focused when asked for', async () => {
    await renderWithData('en', (stats) => <LinksTab stats={stats} focusForm />, { ...STATS, referralCodes: [] });
    const form = within(screen.getByRole('region', { name: enDashboard.links.first.title }));
    expect(form.getByText(enDashboard.links.first.text.replace('{{brand}}', 'Skanova'))).toBeTruthy();
    expect((form.getByRole('button', { name: enDashboard.links.first.submit }) as HTMLButtonElement).disabled).toBe(
      false,
    );
    expect(document.activeElement).toBe(form.getByLabelText(enDashboard.links.generate.description));
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('does not offer new links while the application waits for approval, and says why', async () => {
    await renderWithData('fr', (stats) => <LinksTab stats={stats} />, { ...STATS, status: 'pending' });
    expect(
      (screen.getByRole('button', { name: frDashboard.links.generate.submit }) as HTMLButtonElement).disabled,
    ).toBe(true);
    expect(screen.getByText(frDashboard.status.cannotGenerate)).toBeTruthy();
  });
});

describe('PaymentsTab', () => {
  it('explains why the next payment is less than the unpaid earnings: the hold, day by day, and the cut-off', async () => {
    await renderWithData('en', (stats) => <PaymentsTab stats={stats} />);
    const card = within(screen.getByRole('region', { name: enDashboard.payments.unpaid.title }));
    expect(
      card.getByText('Of your $36.00 of unpaid earnings, $24.00 is paid on July 15, 2025. The rest is paid later:'),
    ).toBeTruthy();
    const parts = card.getAllByRole('listitem').map((item) => item.querySelector('p')?.textContent);
    expect(parts).toEqual(['Still in their hold$8.00', 'Approved since the cut-off$4.00']);
    // The hold of the affiliate's rule (the specification's: 30 days), and the day each amount becomes payable.
    expect(card.getByText(/becomes payable 30 days after the purchase/)).toBeTruthy();
    const rows = within(card.getByRole('table'))
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(rows).toEqual([
      'Payable fromAmountPaid on',
      'July 20, 2025$2.001 commissionAugust 15, 2025',
      'August 2, 2025$6.003 commissionsSeptember 15, 2025',
    ]);
    expect(
      card.getByText('Commissions approved since July 1, 2025 are paid on the following payday, August 15, 2025.'),
    ).toBeTruthy();
  });

  it('under another rule, says its hold; a balance under the minimum and a payout on its way have their line', async () => {
    const own: AffiliateRule = { ...CREATORS };
    const unpaid: UnpaidEarnings = {
      ...UNPAID,
      payableOnNextPaydayCents: 1500,
      minimumCents: 5000,
      payableLaterCents: 0,
      inPayoutCents: 1300,
      pending: UNPAID.pending.slice(0, 1),
      pendingCents: 200,
      unpaidCents: 3000,
    };
    await renderWithData('fr', (stats) => <PaymentsTab stats={stats} />, STATS, own, unpaid);
    const card = within(screen.getByRole('region', { name: frDashboard.payments.unpaid.title }));
    expect(plain(card.getByText(/rien n'est encore versé/).textContent)).toBe(
      "Le 15 juillet 2025, rien n'est encore versé sur vos 30,00 $US de gains non versés :",
    );
    expect(card.getAllByRole('listitem').map((item) => plain(item.querySelector('p')?.textContent ?? null))).toEqual([
      'Encore en attente2,00 $US',
      'Payables, mais sous le minimum de 50,00 $US15,00 $US',
      'Dans un versement en route13,00 $US',
    ]);
    expect(card.getByText(/devient payable 14 jours après l'achat/)).toBeTruthy();
  });

  it('says nothing more when the next payday pays all of the unpaid earnings', async () => {
    const all: UnpaidEarnings = { ...UNPAID, pending: [], pendingCents: 0, payableLaterCents: 0, unpaidCents: 2400 };
    await renderWithData('en', (stats) => <PaymentsTab stats={stats} />, STATS, SPECIFICATION, all);
    expect(screen.queryByRole('region', { name: enDashboard.payments.unpaid.title })).toBeNull();
  });

  it('shows the next payment, the payouts with translated statuses, and the stored method', async () => {
    await renderWithData('fr', (stats) => <PaymentsTab stats={stats} />);
    expect(plain(screen.getByText(frDashboard.payments.next.amount).nextElementSibling?.textContent ?? null)).toBe(
      '36,00 $US',
    );
    expect(screen.getByText('15 juillet 2025')).toBeTruthy();
    expect(
      screen.getByText(/versés le 15 du mois suivant si votre solde approuvé atteint au moins 20,00/),
    ).toBeTruthy();
    expect(
      screen.queryByText(frDashboard.payments.next.belowMinimum.split('{{')[0]!.trim(), { exact: false }),
    ).toBeNull();

    const history = within(screen.getByRole('region', { name: frDashboard.payments.history.title }));
    const rows = history.getAllByRole('row').map((row) => plain(row.textContent));
    // The payday (the 15th, as the rule above says) and the day it was paid are two facts.
    expect(rows).toEqual([
      'Jour de paiementEnvoyé ou payé lePériodeMontantMoyenStatut',
      '15 juin 2025—pas encore1 mai 2025 – 31 mai 202525,50 $USVirement bancaireProgrammé',
      '15 mai 202516 mai 20251 avril 2025 – 30 avril 202540,00 $USPayPalPayé',
      // What a SEPA transfer paid, in euros, under what was earned.
      '15 avril 202515 avril 20251 mars 2025 – 31 mars 202530,00 $USversé : 27,60 €Virement bancaireEnvoyé',
    ]);

    const method = within(screen.getByRole('region', { name: frDashboard.payments.method.title }));
    expect(method.getByText('PayPal')).toBeTruthy();
    expect(method.getByText('ada@example.com')).toBeTruthy();
    expect((screen.getByLabelText(frPayment.fields.paypalEmail) as HTMLInputElement).value).toBe('ada@example.com');
  });

  it('shows in English what a SEPA transfer paid in euros, and nothing more for a payout paid as earned', async () => {
    await renderWithData('en', (stats) => <PaymentsTab stats={stats} />);
    const history = within(screen.getByRole('region', { name: enDashboard.payments.history.title }));
    const amounts = history
      .getAllByRole('cell')
      .filter((cell) => cell.getAttribute('data-label') === enDashboard.payments.history.amount)
      .map((cell) => plain(cell.textContent));
    expect(amounts).toEqual(['$25.50', '$40.00', '$30.00paid as €27.60']);
  });
});

describe('PaymentsTab: commissions and the affiliate’s own rule', () => {
  it('lists the recent commissions with their kind, status and why', async () => {
    await renderWithData('en', (stats) => <PaymentsTab stats={stats} />);
    const list = within(screen.getByRole('region', { name: enDashboard.payments.commissions.title }));
    expect(list.getAllByRole('row').map((row) => plain(row.textContent))).toEqual([
      'DateKindAmountStatusWhy this amount',
      'June 20, 2025Renewal$2.55Pending30% of $8.49 proceeds — rule v2',
      'May 2, 2025First purchase$2.00Paid$2 — default rule v1, 12 qualified conversions before it (step 1 of 2)',
    ]);
  });

  it('gives the hold and the minimum of the affiliate’s own rule', async () => {
    await renderWithData('en', (stats) => <PaymentsTab stats={stats} />, STATS, CREATORS);
    expect(screen.getByText(/at least \$50\.00; otherwise they roll over/)).toBeTruthy();
    expect(screen.getByText(/Each commission is approved 14 days after the purchase\./)).toBeTruthy();
  });
});
