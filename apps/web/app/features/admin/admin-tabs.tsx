import { type KeyboardEvent, useRef } from 'react';
import { useTranslation } from '../../lib/react-i18n';
import { ADMIN_TABS, type AdminTab } from './admin-tab';

// The console's sections (WAI-ARIA tabs pattern, automatic activation): one tab stop, arrow keys
// move and select, Home and End jump to the ends. Only the selected tab's panel exists.

export const adminTabId = (tab: AdminTab) => `admin-tab-${tab}`;
export const adminPanelId = (tab: AdminTab) => `admin-panel-${tab}`;

export function AdminTabs({ selected, onSelect }: { selected: AdminTab; onSelect: (tab: AdminTab) => void }) {
  const { t } = useTranslation('admin');
  const buttons = useRef(new Map<AdminTab, HTMLButtonElement>());

  function move(event: KeyboardEvent<HTMLDivElement>) {
    const focused = ADMIN_TABS.find((tab) => buttons.current.get(tab) === event.target) ?? selected;
    const index = ADMIN_TABS.indexOf(focused);
    const last = ADMIN_TABS.length - 1;
    const target = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const tab = ADMIN_TABS[target]!;
    onSelect(tab);
    buttons.current.get(tab)?.focus();
  }

  return (
    <div className="tabs admin-tabs" role="tablist" aria-label={t('tabs.label')} onKeyDown={move}>
      {ADMIN_TABS.map((tab) => {
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
            id={adminTabId(tab)}
            aria-selected={isSelected}
            aria-controls={isSelected ? adminPanelId(tab) : undefined}
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
