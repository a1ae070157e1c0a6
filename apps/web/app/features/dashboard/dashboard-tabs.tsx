import { type KeyboardEvent, useRef } from 'react';
import { useTranslation } from '../../lib/react-i18n';
import { DASHBOARD_TABS, type DashboardTab } from './dashboard-tab';

// The four tabs (WAI-ARIA tabs pattern, automatic activation): one tab stop, arrow keys move and
// select, Home and End jump to the ends. Only the selected tab's panel exists, so only that tab
// points to it with aria-controls.

export const tabId = (tab: DashboardTab) => `dashboard-tab-${tab}`;
export const panelId = (tab: DashboardTab) => `dashboard-panel-${tab}`;

interface DashboardTabsProps {
  selected: DashboardTab;
  onSelect: (tab: DashboardTab) => void;
}

export function DashboardTabs({ selected, onSelect }: DashboardTabsProps) {
  const { t } = useTranslation('dashboard');
  const buttons = useRef(new Map<DashboardTab, HTMLButtonElement>());

  function move(event: KeyboardEvent<HTMLDivElement>) {
    // From the focused tab, not the selected one: the selection reaches the URL a moment later, and
    // quick key presses must not start again from the old tab.
    const focused = DASHBOARD_TABS.find((tab) => buttons.current.get(tab) === event.target) ?? selected;
    const index = DASHBOARD_TABS.indexOf(focused);
    const last = DASHBOARD_TABS.length - 1;
    const target = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const tab = DASHBOARD_TABS[target]!;
    onSelect(tab);
    buttons.current.get(tab)?.focus();
  }

  return (
    <div className="tabs dashboard-tabs" role="tablist" aria-label={t('tabs.label')} onKeyDown={move}>
      {DASHBOARD_TABS.map((tab) => {
        const isSelected = tab === selected;
        return (
          <button
            key={tab}
            ref={(element) => {
              if (element) buttons.current.set(tab, element);
              else buttons.current.delete(tab);
            }}
            type="button"
            role="tab"
            id={tabId(tab)}
            aria-selected={isSelected}
            aria-controls={isSelected ? panelId(tab) : undefined}
            tabIndex={isSelected ? 0 : -1}
            onClick={() => onSelect(tab)}
          >
            {t(`tabs.${tab}`)}
          </button>
        );
      })}
    </div>
  );
}
