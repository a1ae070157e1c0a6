import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';

// The console's section lives in the URL hash (#conversions, #payouts …; none for the overview, the
// first screen) so a reload or a bookmark keeps it; filters a section takes from another (the
// affiliate of the conversions list, the overview's links, the group a Groups tab shows) ride in the
// query string. At build time
// the hash is empty: the prerendered page and the first render agree.

export const ADMIN_TABS = [
  'overview',
  'affiliates',
  'groups',
  'conversions',
  'payouts',
  'ledger',
  'review',
  'tickets',
  'vitals',
  'audit',
  'webhooks',
] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];

export function adminTabFromHash(hash: string): AdminTab {
  const name = hash.replace(/^#/, '');
  return (ADMIN_TABS as readonly string[]).includes(name) ? (name as AdminTab) : 'overview';
}

/** The selected section, and a way to open one (with its query string, if it takes one). */
export function useAdminTab(): [AdminTab, (tab: AdminTab, search?: string) => void] {
  const location = useLocation();
  const navigate = useNavigate();
  const select = useCallback(
    (tab: AdminTab, search = '') => {
      void navigate({ search, hash: tab === 'overview' ? '' : `#${tab}` }, { replace: true, preventScrollReset: true });
    },
    [navigate],
  );
  return [adminTabFromHash(location.hash), select];
}
