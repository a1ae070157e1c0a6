import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminAffiliateDetail } from '@skanova/shared/admin/responses';
import type { AdminGroup } from '@skanova/shared/rewards/functions';
import enAffiliate from '@skanova/shared/i18n/en/affiliate.json';
import enAdmin from '@skanova/shared/i18n/en/admin.json';
import enCommon from '@skanova/shared/i18n/en/common.json';
import enPayment from '@skanova/shared/i18n/en/payment.json';
import { I18nextProvider } from '../../lib/react-i18n';
import { createTestI18n } from '../../test-support/i18n';
import { AffiliateDetail } from './affiliate-detail';

// Deciding on an affiliate in the console: the decision waits for a confirmation that takes the
// focus (Cancel gives it back), sends the reason, announces the outcome and shows the new state.

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function detail(overrides: Partial<AdminAffiliateDetail['affiliate']> = {}): AdminAffiliateDetail {
  return {
    affiliate: {
      id: 'aff-1',
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: null,
      companyName: 'Engines Ltd',
      website: null,
      language: 'en',
      status: 'active',
      disabled: false,
      disabledReason: null,
      deleted: false,
      paymentMethod: 'paypal',
      groupId: 'default',
      groupName: 'Default',
      createdAt: '2025-01-01T00:00:00.000Z',
      termsAcceptedAt: '2025-01-01T00:00:00.000Z',
      lastActiveAt: null,
      ...overrides,
    },
    stats: {
      totalEarnings: 22,
      totalEarningsCents: 2200,
      unpaidEarnings: 4,
      unpaidEarningsCents: 400,
      totalConversions: 11,
      totalClicks: 40,
      conversionRate: 27.5,
      last30DaysCount: 2,
      hasPremiumRate: false,
      progressToTier: 11,
      currentCommissionRate: 2,
      referralCodes: [
        {
          code: 'K7M2QX4P',
          description: null,
          clickCount: 40,
          conversionCount: 11,
          link: 'http://x/download?ref=K7M2QX4P',
          createdAt: '2025-01-02T00:00:00.000Z',
        },
      ],
      activeVisitors: 0,
      nextPayout: { date: '2025-07-15', payableCents: 0, approvedUnpaidCents: 0 },
      underReviewCents: 0,
      status: 'active',
    },
    payouts: [],
  };
}

function group(id: string, name: string): AdminGroup {
  return {
    id,
    name,
    isDefault: id === 'default',
    archivedAt: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    current: null,
    upcoming: null,
    versionCount: 1,
    affiliateCount: 0,
  };
}

const GROUPS = [group('default', 'Default'), group('creators', 'Creators')];

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * A server that answers the detail, then the decision, then the detail as the decision left it (a
 * decision or a move); the groups, no campaign rate, and `answers` for any other function.
 */
function stubServer(
  before: AdminAffiliateDetail,
  after: AdminAffiliateDetail,
  answers: Record<string, () => Response> = {},
) {
  const calls: { name: string; data: unknown }[] = [];
  let decided = false;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const name = url.split('/').pop()!;
      const { data } = JSON.parse(String(init.body)) as { data: unknown };
      calls.push({ name, data });
      if (answers[name]) return answers[name]();
      if (name === 'adminListGroups') return json({ result: { groups: GROUPS } });
      if (name === 'adminListCampaignRates') return json({ result: { rates: [] } });
      if (name === 'adminSetAffiliateStatus' || name === 'adminMoveAffiliateToGroup') decided = true;
      const result =
        name === 'adminSetAffiliateStatus'
          ? { affiliateId: 'aff-1', status: 'active', disabled: true }
          : name === 'adminMoveAffiliateToGroup'
            ? { affiliateId: 'aff-1', groupId: 'creators', previousGroupId: 'default' }
            : decided
              ? after
              : before;
      return json({ result });
    }),
  );
  return calls;
}

function renderDetail() {
  const i18n = createTestI18n('en', {
    en: { common: enCommon, admin: enAdmin, payment: enPayment, affiliate: enAffiliate },
  });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <AffiliateDetail affiliateId="aff-1" operatorEmail="operator@example.com" onClose={() => {}} />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return userEvent.setup();
}

describe('AffiliateDetail', () => {
  it('shows the affiliate, and disables the account only after a confirmation, with the reason', async () => {
    const calls = stubServer(detail(), detail({ disabled: true, disabledReason: 'Spam' }));
    const user = renderDetail();
    const section = await screen.findByRole('region', { name: 'Ada Lovelace' });
    expect(within(section).getByText('Engines Ltd')).toBeTruthy();
    expect(within(section).getByText('K7M2QX4P')).toBeTruthy();
    expect(within(section).getByText('$22.00')).toBeTruthy();
    expect(within(section).getByText('PayPal')).toBeTruthy();
    expect(within(section).queryByRole('button', { name: 'Approve' })).toBeNull();

    // Cancel: nothing is sent, the focus goes back to the button.
    const disable = within(section).getByRole('button', { name: 'Disable' });
    await user.click(disable);
    const confirm = screen.getByRole('region', { name: "Disable Ada Lovelace's account?" });
    expect(document.activeElement).toBe(within(confirm).getByRole('heading', { level: 4 }));
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('region', { name: /Disable Ada/ })).toBeNull();
    expect(document.activeElement?.textContent).toBe('Disable');
    expect(calls.map((call) => call.name).filter((name) => name.startsWith('adminSet'))).toEqual([]);

    await user.click(within(section).getByRole('button', { name: 'Disable' }));
    const again = screen.getByRole('region', { name: /Disable Ada/ });
    await user.type(within(again).getByLabelText(enAdmin.confirm.reasonOptional), 'Spam');
    await user.click(within(again).getByRole('button', { name: 'Disable' }));

    expect(await screen.findByRole('status')).toHaveProperty(
      'textContent',
      "Ada Lovelace's account is disabled and signed out everywhere.",
    );
    expect(calls.find((call) => call.name === 'adminSetAffiliateStatus')?.data).toEqual({
      affiliateId: 'aff-1',
      action: 'disable',
      reason: 'Spam',
    });
    // The detail is read again: the account is now disabled, and can be enabled.
    expect(await within(section).findByRole('button', { name: 'Enable' })).toBeTruthy();
    expect(within(section).getByText('Reason: Spam')).toBeTruthy();
  });

  it('offers approval and refusal of a pending application', async () => {
    stubServer(detail({ status: 'pending' }), detail());
    renderDetail();
    const section = await screen.findByRole('region', { name: 'Ada Lovelace' });
    expect(
      within(section)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(expect.arrayContaining(['Approve', 'Refuse', 'Disable']));
    expect(within(section).getByText('Pending')).toBeTruthy();
  });
});

describe('AffiliateDetail: group and campaign rates', () => {
  it('moves the affiliate to another group after a confirmation', async () => {
    const calls = stubServer(detail(), detail({ groupId: 'creators', groupName: 'Creators' }));
    const user = renderDetail();
    const section = await screen.findByRole('region', { name: 'Ada Lovelace' });
    expect(within(section).getByText('Default')).toBeTruthy();
    await user.selectOptions(await within(section).findByLabelText(enAdmin.move.select), 'creators');
    await user.click(within(section).getByRole('button', { name: enAdmin.move.submit }));
    const confirm = screen.getByRole('region', { name: 'Move Ada Lovelace to Creators?' });
    await user.click(within(confirm).getByRole('button', { name: enAdmin.move.submit }));
    expect(await screen.findByText('Ada Lovelace is now in the group Creators.')).toBeTruthy();
    expect(calls.find((call) => call.name === 'adminMoveAffiliateToGroup')?.data).toEqual({
      affiliateId: 'aff-1',
      groupId: 'creators',
    });
  });

  it('adds a campaign rate: the form’s own check first, then the server’s refusal next to its field', async () => {
    const calls = stubServer(detail(), detail(), {
      adminCreateCampaignRate: () =>
        json(
          {
            error: {
              status: 'INVALID_ARGUMENT',
              message: 'This range overlaps another campaign rate of the code.',
              details: { code: 'overlap', fields: [{ path: 'from', key: 'admin:campaigns.errors.overlap' }] },
            },
          },
          400,
        ),
    });
    const user = renderDetail();
    const section = await screen.findByRole('region', { name: 'Ada Lovelace' });
    await user.click(await within(section).findByRole('button', { name: 'Add a rate to K7M2QX4P' }));
    const form = within(section).getByRole('form', { name: 'Add a rate to K7M2QX4P' });
    await user.click(within(form).getByRole('button', { name: enAdmin.campaigns.submit }));
    // Nothing sent: the days and the amount are missing.
    expect(calls.some((call) => call.name === 'adminCreateCampaignRate')).toBe(false);
    const from = within(form).getByLabelText(enAdmin.campaigns.from);
    expect(from.getAttribute('aria-invalid')).toBe('true');
    expect(within(form).getAllByText(enAdmin.campaigns.errors.dayFormat)).toHaveLength(2);
    expect(within(form).getByText(enAdmin.rules.errors.amountFormat)).toBeTruthy();

    await user.type(from, '2030-01-01');
    await user.type(within(form).getByLabelText(enAdmin.campaigns.until), '2030-01-31');
    await user.type(within(form).getByLabelText(enAdmin.campaigns.amount), '10');
    await user.click(within(form).getByRole('button', { name: enAdmin.campaigns.submit }));
    expect(await within(form).findByText(enAdmin.campaigns.errors.overlap)).toBeTruthy();
    expect(calls.find((call) => call.name === 'adminCreateCampaignRate')?.data).toEqual({
      code: 'K7M2QX4P',
      from: '2030-01-01',
      until: '2030-01-31',
      kind: 'flat',
      amountCents: 1000,
    });
    expect(from.getAttribute('aria-describedby')).toBe('admin-campaign-K7M2QX4P-from-error');
  });
});
