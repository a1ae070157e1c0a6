import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminOverview } from '@skanova/shared/admin/responses';
import enAdmin from '@skanova/shared/i18n/en/admin.json';
import enCommon from '@skanova/shared/i18n/en/common.json';
import { I18nextProvider } from '../../lib/react-i18n';
import { createTestI18n } from '../../test-support/i18n';
import { OverviewTab } from './overview-tab';

// The console's first screen from one server answer: every figure where an operator looks for it,
// dollars from cents, the links to the tabs that handle what waits, the chart's text alternative,
// and the error state with its retry.

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const MONTHS = ['2024-07', '2024-08', '2024-09', '2024-10', '2024-11', '2024-12'].concat(
  ['01', '02', '03', '04', '05', '06'].map((month) => `2025-${month}`),
);

const OVERVIEW: AdminOverview = {
  asOf: '2025-06-10T12:00:00.000Z',
  affiliates: { active: 1234, pending: 3 },
  totals: { clicks: 56_789, installs: 420, conversions: 92 },
  commissions: {
    pending: { count: 5, cents: 1200 },
    approved: { count: 76, cents: 15_200 },
    paid: { count: 11, cents: 2200 },
  },
  nextPayday: { date: '2025-06-15', cutoff: '2025-06-01T00:00:00.000Z', payouts: 3, cents: 6700 },
  months: MONTHS.map((month, index) => ({ month, clicks: index * 10, installs: index, conversions: index % 3 })),
  needsAction: { pendingApplications: 3, failedPayouts: { count: 1, payday: '2025-05-15' }, openTickets: 0 },
};

function stubServer(answers: (() => Response)[]) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      calls.push(url.split('/').pop()!);
      return (answers.shift() ?? answers[answers.length - 1] ?? ok)();
    }),
  );
  return calls;
}

const ok = () =>
  new Response(JSON.stringify({ result: OVERVIEW }), { status: 200, headers: { 'content-type': 'application/json' } });
const unavailable = () =>
  new Response(JSON.stringify({ error: { status: 'UNAVAILABLE', message: 'unavailable' } }), {
    status: 503,
    headers: { 'content-type': 'application/json' },
  });

function renderOverview() {
  const i18n = createTestI18n('en', { en: { common: enCommon, admin: enAdmin } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={['/admin']}>
          <OverviewTab />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return userEvent.setup();
}

const o = enAdmin.overview;

describe('OverviewTab', () => {
  it('shows what needs action as links to the tabs that handle it', async () => {
    const calls = stubServer([ok]);
    renderOverview();
    const section = await screen.findByRole('region', { name: o.action.title });
    const links = within(section).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      [`3 ${o.action.pendingApplications}`, '/admin?status=pending#affiliates'],
      [
        `1 ${o.action.failedPayouts.replace('{{date}}', 'May 15, 2025')}`,
        '/admin?payday=2025-05-15&status=failed#payouts',
      ],
      [`0 ${o.action.openTickets}`, '/admin#tickets'],
    ]);
    expect(within(section).queryByText(o.action.nothing)).toBeNull();
    expect(calls).toEqual(['adminGetOverview']);
  });

  it('gives the programme’s figures, the commissions in dollars and the next payday', async () => {
    stubServer([ok]);
    renderOverview();
    const programme = await screen.findByRole('region', { name: o.programme.title });
    const figure = (label: string) => within(programme).getByText(label).nextElementSibling?.textContent;
    expect(figure(o.programme.activeAffiliates)).toBe('1,234');
    expect(figure(o.programme.pendingAffiliates)).toBe('3');
    expect(figure(o.programme.clicks)).toBe('56,789');
    expect(figure(o.programme.installs)).toBe('420');
    expect(figure(o.programme.conversions)).toBe('92');

    const commissions = screen.getByRole('region', { name: o.commissions.title });
    const rows = within(commissions)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [
        within(row).getByRole('rowheader').textContent,
        ...within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ]);
    expect(rows).toEqual([
      [o.commissions.pending, '5', '$12.00'],
      [o.commissions.approved, '76', '$152.00'],
      [o.commissions.paid, '11', '$22.00'],
    ]);

    const payday = screen.getByRole('region', { name: 'Next payday: June 15, 2025' });
    expect(within(payday).getByText(o.payday.amount).nextElementSibling?.textContent).toBe('$67.00');
    expect(within(payday).getByText(o.payday.payouts).nextElementSibling?.textContent).toBe('3');
    expect(payday.textContent).toContain('June 1, 2025 (00:00 UTC) of at least $20.00');
    expect(screen.getByText('Figures as of Jun 10, 2025, 12:00 PM UTC.')).toBeTruthy();
  });

  it('draws the 12 months with a text alternative and the figures as a table', async () => {
    stubServer([ok]);
    renderOverview();
    const chart = await screen.findByRole('img', { name: o.chart.title });
    const summary = document.getElementById(chart.getAttribute('aria-describedby')!);
    expect(summary?.textContent).toBe(
      'Over the last 12 months (UTC): 660 counted clicks, 66 attributed installs and 12 conversions. Most clicks in June 2025 (110).',
    );
    const table = screen.getByRole('table', { name: o.chart.title });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(13);
    expect(within(rows[1]!).getByRole('rowheader').textContent).toBe('July 2024');
    expect(rows[12]!.textContent).toBe('June 2025110112');
  });

  it('says so when the figures cannot be read, and tries again on demand', async () => {
    const calls = stubServer([unavailable, ok]);
    const user = renderOverview();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(enAdmin.errors.unavailable);
    await user.click(within(alert).getByRole('button', { name: enAdmin.list.retry }));
    expect(await screen.findByRole('region', { name: o.action.title })).toBeTruthy();
    expect(calls).toEqual(['adminGetOverview', 'adminGetOverview']);
  });
});
