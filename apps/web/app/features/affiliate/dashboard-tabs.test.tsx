import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import enCommon from '@skanova/shared/i18n/en/common.json';
import enDashboard from '@skanova/shared/i18n/en/dashboard.json';
import { I18nextProvider } from '../../lib/react-i18n';
import { type DashboardTab, tabFromHash } from './dashboard-tab';
import { DashboardTabs, panelId } from './dashboard-tabs';
import { createTestI18n } from '../../test-support/i18n';

afterEach(cleanup);

function Harness() {
  const [tab, setTab] = useState<DashboardTab>('overview');
  return <DashboardTabs selected={tab} onSelect={setTab} />;
}

async function renderTabs() {
  const i18n = createTestI18n('en', { en: { common: enCommon, dashboard: enDashboard } });
  render(
    <I18nextProvider i18n={i18n}>
      <Harness />
    </I18nextProvider>,
  );
  return userEvent.setup();
}

const selected = () => screen.getAllByRole('tab').filter((tab) => tab.getAttribute('aria-selected') === 'true');

describe('DashboardTabs', () => {
  it('starts on Overview, the only tab stop, pointing to its panel', async () => {
    await renderTabs();
    expect(screen.getByRole('tablist', { name: enDashboard.tabs.label })).toBeTruthy();
    expect(selected().map((tab) => tab.textContent)).toEqual(['Overview']);
    expect(screen.getAllByRole('tab').map((tab) => tab.tabIndex)).toEqual([0, -1, -1, -1]);
    expect(screen.getByRole('tab', { name: 'Overview' }).getAttribute('aria-controls')).toBe(panelId('overview'));
    expect(screen.getByRole('tab', { name: 'Links' }).getAttribute('aria-controls')).toBeNull();
  });

  it('moves and selects with the arrow keys, Home and End, wrapping around', async () => {
    const user = await renderTabs();
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Overview');
    await user.keyboard('{ArrowRight}');
    expect(selected()[0]!.textContent).toBe('Links');
    expect(document.activeElement?.textContent).toBe('Links');
    await user.keyboard('{End}');
    expect(selected()[0]!.textContent).toBe('Settings');
    await user.keyboard('{ArrowRight}');
    expect(selected()[0]!.textContent).toBe('Overview');
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement?.textContent).toBe('Settings');
    await user.keyboard('{Home}');
    expect(document.activeElement?.textContent).toBe('Overview');
  });

  it('selects by click', async () => {
    const user = await renderTabs();
    await user.click(screen.getByRole('tab', { name: 'Payments' }));
    expect(selected()[0]!.textContent).toBe('Payments');
  });
});

describe('tabFromHash', () => {
  it('reads the tab from the URL hash, Overview otherwise', () => {
    expect(tabFromHash('#links')).toBe('links');
    expect(tabFromHash('#settings')).toBe('settings');
    expect(tabFromHash('')).toBe('overview');
    expect(tabFromHash('#unknown')).toBe('overview');
  });
});
