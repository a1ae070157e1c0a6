import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AffiliateStats, ReferralCodeStats } from '@skanova/shared/affiliate/stats';
import en from '@skanova/shared/i18n/en/marketing.json';
import { CodePage } from './code-page';
import { WithStrings } from './test-i18n';

const callFunction = vi.hoisted(() => vi.fn());
vi.mock('../../lib/callable', () => ({ callFunction }));

function code(value: string, description: string | null): ReferralCodeStats {
  return {
    code: value,
    description,
    clickCount: 0,
    conversionCount: 0,
    link: `https://x.example/download?ref=${value}`,
    createdAt: '2026-01-01T00:00:00Z',
  };
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <WithStrings>
          <CodePage title="Title" subtitle="Subtitle" noCodes="No code yet." noCodesAction="Go generate">
            {(selected) => <p>Selected {selected.link}</p>}
          </CodePage>
        </WithStrings>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  callFunction.mockReset();
});

describe('CodePage', () => {
  it('lists the codes with their descriptions and shows the chosen one', async () => {
    callFunction.mockResolvedValue({
      referralCodes: [code('AAAA2222', 'Instagram'), code('BBBB3333', null)],
    } as Partial<AffiliateStats>);
    renderPage();
    const picker = await screen.findByLabelText(en.codes.label);
    expect([...picker.querySelectorAll('option')].map((option) => option.textContent)).toEqual([
      'AAAA2222 – Instagram',
      'BBBB3333',
    ]);
    expect(screen.getByText('Selected https://x.example/download?ref=AAAA2222')).toBeTruthy();
    await userEvent.selectOptions(picker, 'BBBB3333');
    expect(screen.getByText('Selected https://x.example/download?ref=BBBB3333')).toBeTruthy();
    expect(callFunction).toHaveBeenCalledWith('getAffiliateStats', null);
    expect(screen.getByRole('link', { name: en.codes.back }).getAttribute('href')).toBe('/affiliate/dashboard');
  });

  it('offers the dashboard when there is no code', async () => {
    callFunction.mockResolvedValue({ referralCodes: [] } as Partial<AffiliateStats>);
    renderPage();
    expect(await screen.findByText('No code yet.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go generate' }).getAttribute('href')).toBe('/affiliate/dashboard');
    expect(screen.queryByLabelText(en.codes.label)).toBeNull();
  });

  it('shows a spinner, then the error message when the codes cannot be loaded', async () => {
    callFunction.mockRejectedValue(new Error('unavailable'));
    renderPage();
    expect(screen.getByRole('status').textContent).toBe(en.codes.loading);
    expect((await screen.findByRole('alert')).textContent).toBe(en.codes.loadError);
  });
});
