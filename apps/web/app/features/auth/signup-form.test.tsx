import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import enAuth from '@skanova/shared/i18n/en/auth.json';
import enCommon from '@skanova/shared/i18n/en/common.json';
import enPayment from '@skanova/shared/i18n/en/payment.json';
import frAuth from '@skanova/shared/i18n/fr/auth.json';
import frCommon from '@skanova/shared/i18n/fr/common.json';
import frPayment from '@skanova/shared/i18n/fr/payment.json';
import { CallableClientError, callFunction } from '../../lib/callable';
import { I18nextProvider } from '../../lib/react-i18n';
import SignupForm from './signup-form';
import { createTestI18n } from '../../test-support/i18n';

vi.mock('../../lib/callable', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/callable')>()),
  callFunction: vi.fn(),
}));
const refresh = vi.fn();
vi.mock('../../lib/auth/session', () => ({ useSession: () => ({ refresh }) }));

const call = vi.mocked(callFunction);

beforeEach(() => {
  call.mockReset();
  refresh.mockReset().mockResolvedValue({ status: 'signed-in' });
});
afterEach(cleanup);

function signupPage(lang: 'fr' | 'en') {
  const i18n = createTestI18n(lang, {
    fr: { common: frCommon, auth: frAuth, payment: frPayment },
    en: { common: enCommon, auth: enAuth, payment: enPayment },
  });
  return (
    <I18nextProvider i18n={i18n}>
      <MemoryRouter initialEntries={['/affiliate/signup']}>
        <Routes>
          <Route path="/affiliate/signup" element={<SignupForm />} />
          <Route path="/affiliate/dashboard" element={<h1>Dashboard page</h1>} />
        </Routes>
      </MemoryRouter>
    </I18nextProvider>
  );
}

async function renderSignup(lang: 'fr' | 'en' = 'en') {
  render(signupPage(lang));
  return userEvent.setup();
}

type User = ReturnType<typeof userEvent.setup>;

const heading = () => screen.getByRole('heading', { level: 2 });
const alert = () => screen.getByRole('alert');

async function fillStep1(user: User, email = 'ana@example.com') {
  await user.type(screen.getByLabelText('E-mail'), email);
  await user.type(screen.getByLabelText('Password'), 'long-enough');
  await user.type(screen.getByLabelText('Confirm password'), 'long-enough');
  await user.click(screen.getByRole('button', { name: 'Next' }));
}

async function fillStep2(user: User) {
  await user.type(screen.getByLabelText('First name'), 'Ana');
  await user.type(screen.getByLabelText('Last name'), 'Martin');
  await user.click(screen.getByRole('button', { name: 'Next' }));
}

describe('SignupForm', () => {
  it('walks the three steps, marking the current one and moving focus to each step heading', async () => {
    const user = await renderSignup();
    const current = () => screen.getByRole('listitem', { current: 'step' });
    expect(heading().textContent).toBe('Step 1 of 3: Account');
    expect(current().textContent).toContain('Account');
    await fillStep1(user);
    expect(heading().textContent).toBe('Step 2 of 3: Profile');
    expect(document.activeElement).toBe(heading());
    expect(current().textContent).toContain('Profile');
    await fillStep2(user);
    expect(heading().textContent).toBe('Step 3 of 3: Payment');
    expect((screen.getByLabelText('Set up later') as HTMLInputElement).checked).toBe(true);
    const termsLink = screen.getByRole('link', { name: /affiliate terms/ });
    expect(termsLink.getAttribute('href')).toBe('/affiliate/terms');
    expect(termsLink.getAttribute('target')).toBe('_blank');
    expect(termsLink.getAttribute('rel')).toBe('noopener');
  });

  it('shows every step-1 message in the banner at once, focused, and keeps what was typed', async () => {
    const user = await renderSignup();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(alert().textContent).toBe('All required fields must be filled in.');
    expect(document.activeElement).toBe(alert());
    await user.type(screen.getByLabelText('E-mail'), 'ana@example.com');
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.type(screen.getByLabelText('Confirm password'), 'other');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    // Both problems at once, the mismatch first; both fields marked.
    expect(within(alert()).getByText('Correct these 2 points to continue:')).toBeTruthy();
    expect(
      within(alert())
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Passwords do not match.', 'Password must contain at least 8 characters.']);
    expect(document.activeElement).toBe(alert());
    expect(screen.getByLabelText('Confirm password').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBe('true');
    await user.clear(screen.getByLabelText('Confirm password'));
    await user.type(screen.getByLabelText('Confirm password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(alert().textContent).toBe('Password must contain at least 8 characters.');
    expect((screen.getByLabelText('E-mail') as HTMLInputElement).value).toBe('ana@example.com');
  });

  it('keeps what was typed on the prerendered page before its script took over', async () => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(signupPage('en'));
    document.body.append(container);
    onTestFinished(() => container.remove());
    // A quick visitor (or the browser's autofill) fills the e-mail while the script is still loading…
    const early = screen.getByLabelText<HTMLInputElement>('E-mail');
    early.value = 'ana@example.com';
    early.dispatchEvent(new Event('input', { bubbles: true }));
    const root = await act(async () => hydrateRoot(container, signupPage('en')));
    onTestFinished(() => act(() => root.unmount()));
    // …then the passwords, once the form is live: the e-mail is still there, and counts.
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Password'), 'long-enough');
    await user.type(screen.getByLabelText('Confirm password'), 'long-enough');
    expect(screen.getByLabelText<HTMLInputElement>('E-mail').value).toBe('ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(heading().textContent).toBe('Step 2 of 3: Profile');
  });

  it('Back returns a step, clears the message and keeps the values', async () => {
    const user = await renderSignup();
    await fillStep1(user);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(alert().textContent).toBe('First name and last name are required.');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(heading().textContent).toBe('Step 1 of 3: Account');
    expect((screen.getByLabelText('E-mail') as HTMLInputElement).value).toBe('ana@example.com');
  });

  it('checks the payment method and the terms before sending', async () => {
    const user = await renderSignup();
    await fillStep1(user);
    await fillStep2(user);
    await user.click(screen.getByLabelText('PayPal'));
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(
      within(alert())
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['PayPal email is required.', 'You must accept the affiliate terms.']);
    expect(screen.getByLabelText('PayPal email').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('checkbox').getAttribute('aria-invalid')).toBe('true');
    await user.type(screen.getByLabelText('PayPal email'), 'ana@paypal.example.com');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(alert().textContent).toBe('You must accept the affiliate terms.');
    expect(call).not.toHaveBeenCalled();
  });

  it('clears an error about one payment method when another is chosen, and keeps the others', async () => {
    const user = await renderSignup();
    await fillStep1(user);
    await fillStep2(user);
    await user.click(screen.getByLabelText('Bank transfer'));
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(within(alert()).getAllByRole('listitem')[0]?.textContent).toContain('Bank information is required');
    // The terms do not depend on the method: their message stays, and the focus stays on the choice.
    await user.click(screen.getByLabelText('PayPal'));
    expect(alert().textContent).toBe('You must accept the affiliate terms.');
    expect(document.activeElement).toBe(screen.getByLabelText('PayPal'));
    expect(screen.getByLabelText('PayPal email').getAttribute('aria-invalid')).toBeNull();
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByLabelText('Bank transfer'));
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(alert().textContent).toContain('Bank information is required');
    await user.click(screen.getByLabelText('Set up later'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(call).not.toHaveBeenCalled();
  });

  it('creates the account with a busy label, then opens the dashboard', async () => {
    let finish: () => void = () => {};
    call.mockReturnValue(
      new Promise<never>((resolve) => (finish = () => resolve({ affiliateId: 'a1', status: 'active' } as never))),
    );
    const user = await renderSignup('en');
    await fillStep1(user);
    await fillStep2(user);
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    const busy = screen.getByRole('button', { name: 'Creating account…' }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    expect(call).toHaveBeenCalledWith(
      'createAffiliate',
      expect.objectContaining({
        email: 'ana@example.com',
        paymentMethod: 'later',
        termsAccepted: true,
        language: 'en',
      }),
    );
    finish();
    expect(await screen.findByRole('heading', { name: 'Dashboard page' })).toBeTruthy();
    expect(refresh).toHaveBeenCalledOnce();
  });

  it('sends a taken e-mail back to step 1 with its own message (in French too)', async () => {
    call.mockRejectedValue(
      new CallableClientError('email-taken', 'An account already exists.', {
        code: 'email-taken',
        fields: [{ path: 'email', key: 'auth:errors.emailTaken' }],
      }),
    );
    const user = await renderSignup('fr');
    await user.type(screen.getByLabelText('E-mail'), 'ana@example.com');
    await user.type(screen.getByLabelText('Mot de passe'), 'long-enough');
    await user.type(screen.getByLabelText('Confirmer le mot de passe'), 'long-enough');
    await user.click(screen.getByRole('button', { name: 'Suivant' }));
    await user.type(screen.getByLabelText('Prénom'), 'Ana');
    await user.type(screen.getByLabelText('Nom'), 'Martin');
    await user.click(screen.getByRole('button', { name: 'Suivant' }));
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Créer mon compte' }));
    await waitFor(() => expect(alert().textContent).toBe(frAuth.errors.emailTaken));
    expect(heading().textContent).toBe('Étape 1 sur 3 : Compte');
    expect(screen.getByLabelText('E-mail').getAttribute('aria-invalid')).toBe('true');
    expect((screen.getByLabelText('Mot de passe') as HTMLInputElement).value).toBe('long-enough');
  });

  it('shows the server’s payment refusal on the last step, and a generic message for the unexpected', async () => {
    call.mockRejectedValueOnce(
      new CallableClientError('invalid-argument', 'Invalid information provided.', {
        code: 'invalid-argument',
        fields: [{ path: 'paymentDetails.bankIban', key: 'payment:errors.invalid-iban-checksum' }],
      }),
    );
    call.mockRejectedValueOnce(new CallableClientError('permission-denied', 'Nope'));
    const user = await renderSignup();
    await fillStep1(user);
    await fillStep2(user);
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(alert().textContent).toBe(enPayment.errors['invalid-iban-checksum']));
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(alert().textContent).toBe('An error occurred. Please try again.'));
    expect(heading().textContent).toBe('Step 3 of 3: Payment');
  });
});
