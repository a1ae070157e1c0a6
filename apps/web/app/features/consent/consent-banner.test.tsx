import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from '../../lib/react-i18n';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import en from '@skanova/shared/i18n/en/common.json';
import { ConsentPreferencesButton } from '../../components/consent-preferences-button';
import { ConsentBanner } from './consent-banner';
import { onConsent, readConsent } from '../../lib/consent';
import { createTestI18n } from '../../test-support/i18n';

const i18n = createTestI18n('en', { en: { common: en } });

function renderBanner() {
  return render(
    <I18nextProvider i18n={i18n}>
      <main>
        <ConsentBanner />
        <ConsentPreferencesButton>Cookie preferences</ConsentPreferencesButton>
      </main>
    </I18nextProvider>,
  );
}

const banner = () => screen.findByRole('region', { name: en.consent.title });

beforeEach(() => {
  document.cookie = 'consent=; Max-Age=0; Path=/';
});
afterEach(cleanup);

describe('ConsentBanner', () => {
  it('asks a visitor who has not answered, and remembers an acceptance', async () => {
    const answers: string[] = [];
    const stop = onConsent((choice) => answers.push(choice));
    renderBanner();
    const region = await banner();
    expect(document.activeElement, 'a first visit does not steal the focus').not.toBe(region);
    await userEvent.click(screen.getByRole('button', { name: en.consent.accept }));
    expect(screen.queryByRole('region', { name: en.consent.title })).toBeNull();
    expect(readConsent()).toBe('granted');
    expect(answers).toEqual(['granted']);
    stop();
  });

  it('remembers a refusal', async () => {
    renderBanner();
    await banner();
    await userEvent.click(screen.getByRole('button', { name: en.consent.refuse }));
    expect(readConsent()).toBe('denied');
    expect(screen.queryByRole('region', { name: en.consent.title })).toBeNull();
  });

  it('stays hidden for a visitor who answered, until they ask for their preferences', async () => {
    document.cookie = 'consent=denied; Path=/';
    renderBanner();
    await act(async () => {});
    expect(screen.queryByRole('region', { name: en.consent.title })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Cookie preferences' }));
    const region = await banner();
    expect(document.activeElement).toBe(region);
    await userEvent.click(screen.getByRole('button', { name: en.consent.accept }));
    expect(readConsent()).toBe('granted');
  });

  it('is a compact bar on a page that asks for it, with its name, answers, policy link and short text', async () => {
    render(
      <I18nextProvider i18n={i18n}>
        <div data-consent-bar="compact" />
        <ConsentBanner />
      </I18nextProvider>,
    );
    const region = await banner();
    expect(region.className).toContain('consent-banner--compact');
    expect(region.textContent).toContain(en.consent.short);
    expect(region.textContent).not.toContain(en.consent.text);
    expect(screen.getByRole('link', { name: en.consent.policy }).getAttribute('href')).toBe('/privacy');
    await userEvent.click(screen.getByRole('button', { name: en.consent.refuse }));
    expect(readConsent()).toBe('denied');
  });

  it('links to the privacy policy', async () => {
    renderBanner();
    expect((await banner()).className).not.toContain('consent-banner--compact');
    expect(screen.getByRole('link', { name: en.consent.policy }).getAttribute('href')).toBe('/privacy');
  });
});
