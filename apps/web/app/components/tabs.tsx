import { type KeyboardEvent, type ReactNode, useRef } from 'react';
import './tabs.css';

// Tabs (WAI-ARIA tabs pattern, automatic activation) for the dashboard and the console: one tab
// stop, arrow keys move and select, Home and End jump to the ends. Only the selected tab's panel
// exists, so only that tab points to it with aria-controls. On narrow screens the tabs wrap into
// rows, so every tab stays in view (no tab hidden behind a scroll).

/** `${idPrefix}-tab-${tab}`: the id of a tab, which labels its panel. */
export const tabId = (idPrefix: string, tab: string) => `${idPrefix}-tab-${tab}`;
/** `${idPrefix}-panel-${tab}`: the id of a tab's panel. */
export const tabPanelId = (idPrefix: string, tab: string) => `${idPrefix}-panel-${tab}`;

export interface TabsProps<Tab extends string> {
  /** The tabs in order. */
  tabs: readonly Tab[];
  selected: Tab;
  onSelect: (tab: Tab) => void;
  /** The tab list's accessible name. */
  label: string;
  /** A tab's visible name. */
  tabLabel: (tab: Tab) => ReactNode;
  /** Prefix of the tabs' and panels' ids (see tabId, tabPanelId). */
  idPrefix: string;
  className?: string;
}

export function Tabs<Tab extends string>({
  tabs,
  selected,
  onSelect,
  label,
  tabLabel,
  idPrefix,
  className,
}: TabsProps<Tab>) {
  const buttons = useRef(new Map<Tab, HTMLButtonElement>());

  function move(event: KeyboardEvent<HTMLDivElement>) {
    // From the focused tab, not the selected one: the selection may reach the URL a moment later,
    // and quick key presses must not start again from the old tab.
    const focused = tabs.find((tab) => buttons.current.get(tab) === event.target) ?? selected;
    const index = tabs.indexOf(focused);
    const last = tabs.length - 1;
    const target = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const tab = tabs[target]!;
    onSelect(tab);
    buttons.current.get(tab)?.focus();
  }

  return (
    <div className={className ? `tabs ${className}` : 'tabs'} role="tablist" aria-label={label} onKeyDown={move}>
      {tabs.map((tab) => {
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
            id={tabId(idPrefix, tab)}
            aria-selected={isSelected}
            aria-controls={isSelected ? tabPanelId(idPrefix, tab) : undefined}
            tabIndex={isSelected ? 0 : -1}
            onClick={() => onSelect(tab)}
          >
            {tabLabel(tab)}
          </button>
        );
      })}
    </div>
  );
}

export interface TabPanelProps {
  idPrefix: string;
  /** The tab this panel belongs to. */
  tab: string;
  children: ReactNode;
}

/** The selected tab's panel, labelled by its tab (give it `key={tab}` so each panel appears afresh). */
export function TabPanel({ idPrefix, tab, children }: TabPanelProps) {
  return (
    <div
      className="tab-panel"
      role="tabpanel"
      id={tabPanelId(idPrefix, tab)}
      aria-labelledby={tabId(idPrefix, tab)}
      tabIndex={0}
    >
      {children}
    </div>
  );
}
