import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import common from '@skanova/shared/i18n/fr/common.json';
import studio from '@skanova/shared/i18n/fr/studio.json';
import { I18nextProvider } from '../../lib/react-i18n';
import { createTestI18n } from '../../test-support/i18n';
import { ConsentForm } from './consent-form';
import { failureOf } from './analysis-protocol';

const i18n = createTestI18n('fr', { fr: { common, studio } });

function renderForm(onConsent: () => Promise<void>) {
  return render(
    <I18nextProvider i18n={i18n}>
      <ConsentForm onConsent={onConsent} />
    </I18nextProvider>,
  );
}

afterEach(cleanup);

describe('the consent before the first scan', () => {
  it('needs both the age and the consent, and says which is missing', async () => {
    const onConsent = vi.fn(() => Promise.resolve());
    renderForm(onConsent);
    expect(screen.getByRole('heading', { name: studio.consent.medicalTitle })).toBeDefined();
    await userEvent.click(screen.getByRole('button', { name: studio.consent.submit }));
    expect(screen.getByText(studio.consent.ageRequired)).toBeDefined();
    expect(screen.getByText(studio.consent.consentRequired)).toBeDefined();
    expect(screen.getByRole('checkbox', { name: studio.consent.ageLabel }).getAttribute('aria-invalid')).toBe('true');

    await userEvent.click(screen.getByRole('checkbox', { name: studio.consent.ageLabel }));
    await userEvent.click(screen.getByRole('button', { name: studio.consent.submit }));
    expect(onConsent).not.toHaveBeenCalled();
    expect(screen.queryByText(studio.consent.ageRequired)).toBeNull();

    await userEvent.click(screen.getByRole('checkbox', { name: studio.consent.consentLabel }));
    await userEvent.click(screen.getByRole('button', { name: studio.consent.submit }));
    expect(onConsent).toHaveBeenCalledTimes(1);
  });

  it('keeps a box ticked on the prerendered page before its script took over', async () => {
    const onConsent = vi.fn(() => Promise.resolve());
    const form = (
      <I18nextProvider i18n={i18n}>
        <ConsentForm onConsent={onConsent} />
      </I18nextProvider>
    );
    const container = document.createElement('div');
    container.innerHTML = renderToString(form);
    document.body.append(container);
    onTestFinished(() => container.remove());
    // A quick visitor ticks the age box while the page's script is still loading…
    screen.getByRole<HTMLInputElement>('checkbox', { name: studio.consent.ageLabel }).click();
    const root = await act(async () => hydrateRoot(container, form));
    onTestFinished(() => act(() => root.unmount()));
    // …then the consent box, once it is live, and sends.
    await userEvent.click(screen.getByRole('checkbox', { name: studio.consent.consentLabel }));
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: studio.consent.ageLabel }).checked).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: studio.consent.submit }));
    expect(screen.queryByText(studio.consent.ageRequired)).toBeNull();
    expect(onConsent).toHaveBeenCalledTimes(1);
  });

  it('says so when the device refuses to keep the consent', async () => {
    renderForm(() => Promise.reject(new Error('QuotaExceededError')));
    await userEvent.click(screen.getByRole('checkbox', { name: studio.consent.ageLabel }));
    await userEvent.click(screen.getByRole('checkbox', { name: studio.consent.consentLabel }));
    await userEvent.click(screen.getByRole('button', { name: studio.consent.submit }));
    expect((await screen.findByRole('alert')).textContent).toBe(studio.home.storageError);
    expect(screen.getByRole('button', { name: studio.consent.submit }).hasAttribute('disabled')).toBe(false);
  });
});

describe('a failure in the analysis worker', () => {
  it('is "out of memory" when the runtime says so, a crash otherwise', () => {
    expect(failureOf(new RangeError('Array buffer allocation failed'))).toBe('memory');
    expect(failureOf(new Error('Failed to compile fragment shader: out of memory'))).toBe('memory');
    expect(failureOf(new TypeError("Cannot read properties of undefined (reading 'inputNodes')"))).toBe('crashed');
    expect(failureOf('boom')).toBe('crashed');
  });
});
