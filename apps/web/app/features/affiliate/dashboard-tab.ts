import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';

// The dashboard's tab lives in the URL hash (#links, #payments, #settings) so a reload, a bookmark
// or the back button keeps it. Derived from the router's location: at build time the hash is
// empty, so the prerendered shell and the first render agree (Overview, docs/product/routes-and-screens.md#overview-tab default).

export const DASHBOARD_TABS = ['overview', 'links', 'payments', 'settings'] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];

export function tabFromHash(hash: string): DashboardTab {
  const name = hash.replace(/^#/, '');
  return (DASHBOARD_TABS as readonly string[]).includes(name) ? (name as DashboardTab) : 'overview';
}

export function useDashboardTab(): [DashboardTab, (tab: DashboardTab) => void] {
  const location = useLocation();
  const navigate = useNavigate();
  const select = useCallback(
    (tab: DashboardTab) => {
      // Replace, not push: switching tabs is not a page visit. No scroll: the panel ids differ
      // from the hash, and the page keeps its position.
      void navigate(
        { search: location.search, hash: tab === 'overview' ? '' : `#${tab}` },
        { replace: true, preventScrollReset: true },
      );
    },
    [navigate, location.search],
  );
  return [tabFromHash(location.hash), select];
}
