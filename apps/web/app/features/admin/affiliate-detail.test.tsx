import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminAffiliateDetail } from '@skanova/shared/admin/responses';
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
      status: 'active',
    },
    payouts: [],
  };
}

/** A server that answers the detail, then the decision, then the detail as the decision left it. */
function stubServer(before: AdminAffiliateDetail, after: AdminAffiliateDetail) {
  const calls: { name: string; data: unknown }[] = [];
  let decided = false;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const name = url.split('/').pop()!;
      const { data } = JSON.parse(String(init.body)) as { data: unknown };
      calls.push({ name, data });
      if (name === 'adminSetAffiliateStatus') decided = true;
      const result =
        name === 'adminSetAffiliateStatus'
          ? { affiliateId: 'aff-1', status: 'active', disabled: true }
          : decided
            ? after
            : before;
      return new Response(JSON.stringify({ result }), { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

function renderDetail() {
  const i18n = createTestI18n('en', { en: { common: enCommon, admin: enAdmin, payment: enPayment } });
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
    expect(calls.map((call) => call.name)).toEqual(['adminGetAffiliate']);

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
