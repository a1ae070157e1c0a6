import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
