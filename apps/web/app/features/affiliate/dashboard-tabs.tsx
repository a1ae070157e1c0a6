import { Tabs, tabId as tabIdIn, tabPanelId } from '../../components/tabs';
import { useTranslation } from '../../lib/react-i18n';
import { DASHBOARD_TABS, type DashboardTab } from './dashboard-tab';

// The dashboard's four tabs (components/tabs.tsx); only the selected tab's panel exists.

export const DASHBOARD_ID_PREFIX = 'dashboard';
export const tabId = (tab: DashboardTab) => tabIdIn(DASHBOARD_ID_PREFIX, tab);
export const panelId = (tab: DashboardTab) => tabPanelId(DASHBOARD_ID_PREFIX, tab);

interface DashboardTabsProps {
  selected: DashboardTab;
  onSelect: (tab: DashboardTab) => void;
}

export function DashboardTabs({ selected, onSelect }: DashboardTabsProps) {
  const { t } = useTranslation('dashboard');
  return (
    <Tabs
      tabs={DASHBOARD_TABS}
      selected={selected}
      onSelect={onSelect}
      label={t('tabs.label')}
      tabLabel={(tab) => t(`tabs.${tab}`)}
      idPrefix={DASHBOARD_ID_PREFIX}
      className="dashboard-tabs"
    />
  );
}
