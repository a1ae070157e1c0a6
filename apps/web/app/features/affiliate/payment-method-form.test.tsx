import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PaymentMethodSummary } from '@skanova/shared/affiliate/payment-method';
import enCommon from '@skanova/shared/i18n/en/common.json';
import enDashboard from '@skanova/shared/i18n/en/dashboard.json';
import enPayment from '@skanova/shared/i18n/en/payment.json';
import frCommon from '@skanova/shared/i18n/fr/common.json';
import frDashboard from '@skanova/shared/i18n/fr/dashboard.json';
import frPayment from '@skanova/shared/i18n/fr/payment.json';
import { CallableClientError } from '../../lib/callable';
import { I18nextProvider } from '../../lib/react-i18n';
import { PaymentMethodForm, SUCCESS_SCROLL_DELAY_MS, type UpdatePaymentMethod } from './payment-method-form';
import { createTestI18n } from '../../test-support/i18n';

const STORED_BANK: PaymentMethodSummary = {
  type: 'bank_transfer',
  configured: true,
  bankName: 'BNP Paribas',
  accountHolder: 'Ada Lovelace',
  ibanMasked: '•••• •••• •••• •••• •••• •••0 189',
  bic: 'BNPAFRPP',
  updatedAt: '2025-05-01T10:00:00.000Z',
};
const VALID_IBAN = 'FR76 3000 6000 0112 3456 7890 189';

const scrolled = vi.fn();

beforeEach(() => {
  // jsdom does not lay out: record the scrolls instead.
  Element.prototype.scrollIntoView = scrolled;
});

afterEach(() => {
  cleanup();
  scrolled.mockReset();
  vi.useRealTimers();
});

async function renderForm(lang: 'fr' | 'en', stored: PaymentMethodSummary | null, update: UpdatePaymentMethod) {
  const i18n = createTestI18n(lang, {
    fr: { common: frCommon, dashboard: frDashboard, payment: frPayment },
    en: { common: enCommon, dashboard: enDashboard, payment: enPayment },
  });
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <PaymentMethodForm stored={stored} update={update} />
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('PaymentMethodForm', () => {
  it('starts from the stored bank details, the IBAN to type again, with the masked one as a hint', async () => {
    await renderForm('en', STORED_BANK, vi.fn<UpdatePaymentMethod>());
    expect((screen.getByRole('radio', { name: 'Bank transfer' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByRole('radio', { name: 'Set up later' })).toBeNull();
    expect(input('Bank name').value).toBe('BNP Paribas');
    expect(input('Account holder').value).toBe('Ada Lovelace');
    expect(input('BIC / SWIFT').value).toBe('BNPAFRPP');
    expect(input('IBAN').value).toBe('');
    expect(input('IBAN').getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(input('IBAN').getAttribute('aria-describedby')!)?.textContent).toContain(
      STORED_BANK.ibanMasked,
    );
  });

  it('starts on PayPal when nothing is stored', async () => {
    await renderForm('en', null, vi.fn<UpdatePaymentMethod>());
    expect((screen.getByRole('radio', { name: 'PayPal' }) as HTMLInputElement).checked).toBe(true);
    expect(input('PayPal email').value).toBe('');
  });

  it('checks the IBAN in the browser first, with the server’s messages, and an edit clears them', async () => {
    const update = vi.fn<UpdatePaymentMethod>();
    await renderForm('fr', STORED_BANK, update);
    const user = userEvent.setup();
    const save = screen.getByRole('button', { name: frDashboard.payments.update.submit });

    await user.type(input('IBAN'), 'FR76 3000');
    await user.click(save);
    expect(screen.getByRole('alert').textContent).toBe(frPayment.errors['invalid-iban']);
    expect(input('IBAN').getAttribute('aria-invalid')).toBe('true');
    expect(scrolled).toHaveBeenCalledTimes(1);

    await user.type(input('IBAN'), '6000 0112 3456 7890 180');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(input('IBAN').getAttribute('aria-invalid')).toBeNull();
    await user.click(save);
    expect(screen.getByRole('alert').textContent).toBe(frPayment.errors['invalid-iban-checksum']);
    expect(update).not.toHaveBeenCalled();
  });

  it('names the missing bank fields', async () => {
    await renderForm('en', null, vi.fn<UpdatePaymentMethod>());
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: 'Bank transfer' }));
    await user.type(input('Bank name'), 'BNP Paribas');
    await user.click(screen.getByRole('button', { name: enDashboard.payments.update.submit }));
    expect(screen.getByRole('alert').textContent).toBe(
      'Bank information is required: IBAN, BIC / SWIFT, Account holder',
    );
  });

  it('shows the message of a refusal from the server by its detail code, else from the catalogue', async () => {
    const update = vi
      .fn<UpdatePaymentMethod>()
      .mockRejectedValueOnce(
        new CallableClientError('invalid-bic', 'Invalid payment details.', { code: 'invalid-bic', fields: ['bic'] }),
      )
      .mockRejectedValueOnce(new CallableClientError('unavailable', 'unavailable'));
    await renderForm('en', null, update);
    const user = userEvent.setup();
    await user.type(input('PayPal email'), 'ada@example.com');
    const save = screen.getByRole('button', { name: enDashboard.payments.update.submit });
    await user.click(save);
    expect((await screen.findByRole('alert')).textContent).toBe(enPayment.errors['invalid-bic']);
    await user.click(save);
    expect((await screen.findByRole('alert')).textContent).toBe(enCommon.callable.unavailable);
    expect(update).toHaveBeenCalledWith({
      paymentMethod: 'paypal',
      paymentDetails: { paypalEmail: 'ada@example.com' },
    });
  });

  it('saves, shows the success message and scrolls to it after 100 ms', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const saved: PaymentMethodSummary = {
      ...STORED_BANK,
      ibanMasked: '•••• 0189',
      updatedAt: '2025-06-01T10:00:00.000Z',
    };
    const update = vi.fn<UpdatePaymentMethod>().mockResolvedValue({ success: true, paymentMethod: saved });
    await renderForm('en', STORED_BANK, update);
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.type(input('IBAN'), VALID_IBAN);
    await user.click(screen.getByRole('button', { name: enDashboard.payments.update.submit }));

    expect(await screen.findByText(enDashboard.payments.update.success)).toBeTruthy();
    expect(update).toHaveBeenCalledWith({
      paymentMethod: 'bank_transfer',
      paymentDetails: { accountHolder: 'Ada Lovelace', bankName: 'BNP Paribas', bankIban: VALID_IBAN, bic: 'BNPAFRPP' },
    });
    // The IBAN is cleared again: what is stored is only shown masked.
    expect(input('IBAN').value).toBe('');
    expect(scrolled).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(SUCCESS_SCROLL_DELAY_MS));
    expect(scrolled).toHaveBeenCalledTimes(1);

    await user.type(input('Bank name'), ' SA');
    expect(screen.queryByText(enDashboard.payments.update.success)).toBeNull();
  });
});
