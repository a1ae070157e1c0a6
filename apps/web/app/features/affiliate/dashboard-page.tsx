import { useEffect, useRef, useState } from 'react';
import { TabPanel } from '../../components/tabs';
import { useTranslation } from '../../lib/react-i18n';
import { DashboardHeader } from './dashboard-header';
import { useDashboardTab } from './dashboard-tab';
import { DASHBOARD_ID_PREFIX, DashboardTabs } from './dashboard-tabs';
import { LinksTab } from './links-tab';
import { OverviewTab } from './overview-tab';
import { PaymentsTab } from './payments-tab';
import { useAffiliateStats } from './queries';
import { SettingsTab } from './settings-tab';
import './dashboard.css';

// The affiliate dashboard (docs/product/routes-and-screens.md#dashboard): header, the statistics' loading and
// error states, and four tabs. Rendered only when signed in (the protected layout waits for the
// session), so nothing here is part of the prerendered shell.

export function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const [tab, selectTab] = useDashboardTab();
  const stats = useAffiliateStats();
  const [deleted, setDeleted] = useState(false);
  // The overview's "create my first link" opens the Links tab with its form focused.
  const [focusLinkForm, setFocusLinkForm] = useState(false);

  if (deleted) return <AccountDeleted />;
  return (
    <div className="container dashboard">
      <DashboardHeader />
      {stats.isError ? (
        <div className="form-error dashboard-banner" role="alert">
          <p>{t('errors.loadStats')}</p>
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={() => void stats.refetch()}
            disabled={stats.isFetching}
          >
            {stats.isFetching ? t('errors.retrying') : t('errors.retry')}
          </button>
        </div>
      ) : null}
      {stats.data && stats.data.status !== 'active' ? (
        <div className="form-info dashboard-banner" role="status">
          <p>{t(stats.data.status === 'pending' ? 'status.pending' : 'status.refused')}</p>
        </div>
      ) : null}
      <DashboardTabs selected={tab} onSelect={selectTab} />
      {/* Keyed by tab: each panel fades in as it appears (docs/product/rules-and-constants.md#timings). */}
      <TabPanel key={tab} idPrefix={DASHBOARD_ID_PREFIX} tab={tab}>
        {tab === 'overview' ? (
          <OverviewTab
            stats={stats}
            onCreateFirstLink={() => {
              setFocusLinkForm(true);
              selectTab('links');
            }}
          />
        ) : null}
        {tab === 'links' ? <LinksTab stats={stats} focusForm={focusLinkForm} /> : null}
        {tab === 'payments' ? <PaymentsTab stats={stats} /> : null}
        {tab === 'settings' ? <SettingsTab onAccountDeleted={() => setDeleted(true)} /> : null}
      </TabPanel>
    </div>
  );
}

/**
 * After deletion the sign-in session no longer exists on the server. The links reload the page, so
 * the affiliate area reads the (now absent) session afresh instead of racing the protected layout.
 */
function AccountDeleted() {
  const { t } = useTranslation('dashboard');
  const heading = useRef<HTMLHeadingElement>(null);
  // The button that was pressed is gone with the page it was on: the focus moves to the news.
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="container dashboard dashboard-deleted">
      <h1 ref={heading} tabIndex={-1}>
        {t('settings.delete.doneTitle')}
      </h1>
      <p className="form-success" role="status">
        {t('settings.delete.done')}
      </p>
      <p>{t('settings.delete.doneRetention')}</p>
      <div className="button-row">
        <a className="button button--primary" href="/affiliate">
          {t('settings.delete.toHome')}
        </a>
      </div>
    </div>
  );
}
