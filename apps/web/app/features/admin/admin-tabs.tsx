import { Tabs, tabId, tabPanelId } from '../../components/tabs';
import { useTranslation } from '../../lib/react-i18n';
import { ADMIN_TABS, type AdminTab } from './admin-tab';

// The console's sections (components/tabs.tsx); only the selected tab's panel exists.

export const ADMIN_ID_PREFIX = 'admin';
export const adminTabId = (tab: AdminTab) => tabId(ADMIN_ID_PREFIX, tab);
export const adminPanelId = (tab: AdminTab) => tabPanelId(ADMIN_ID_PREFIX, tab);

export function AdminTabs({ selected, onSelect }: { selected: AdminTab; onSelect: (tab: AdminTab) => void }) {
  const { t } = useTranslation('admin');
  return (
    <Tabs
      tabs={ADMIN_TABS}
      selected={selected}
      onSelect={onSelect}
      label={t('tabs.label')}
      tabLabel={(tab) => t(`tabs.${tab}`)}
      idPrefix={ADMIN_ID_PREFIX}
      className="admin-tabs"
    />
  );
}
