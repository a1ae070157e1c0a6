import { useQuery } from '@tanstack/react-query';
import { callFunction } from '../../lib/callable';

// Server state of the dashboard (README.md#architecture: TanStack Query). One key per server function, so a
// mutation can re-fetch exactly what it changed (docs/product/routes-and-screens.md#links-tab: "Generating a code re-fetches the stats").

export const dashboardKeys = {
  stats: ['affiliate', 'stats'],
  activeVisitors: ['affiliate', 'active-visitors'],
  timeline: ['affiliate', 'timeline'],
  paymentMethod: ['affiliate', 'payment-method'],
  payouts: ['affiliate', 'payouts'],
  settings: ['affiliate', 'settings'],
  rule: ['affiliate', 'rule'],
  commissions: ['affiliate', 'commissions'],
  unpaidEarnings: ['affiliate', 'unpaid-earnings'],
} as const;

export function useAffiliateStats() {
  return useQuery({ queryKey: dashboardKeys.stats, queryFn: () => callFunction('getAffiliateStats', null) });
}

/** Fetched by the overview's card (on its own while the page is visible, or when asked): the stats carry a first count. */
export function useActiveVisitors() {
  return useQuery({
    queryKey: dashboardKeys.activeVisitors,
    queryFn: () => callFunction('getActiveVisitors', null),
    enabled: false,
  });
}

export function useAffiliateTimeline() {
  return useQuery({ queryKey: dashboardKeys.timeline, queryFn: () => callFunction('getAffiliateTimeline', null) });
}

export function useAffiliatePaymentMethod() {
  return useQuery({
    queryKey: dashboardKeys.paymentMethod,
    queryFn: async () => (await callFunction('getAffiliatePaymentMethod', null)).paymentMethod,
  });
}

export function useAffiliatePayouts() {
  return useQuery({
    queryKey: dashboardKeys.payouts,
    queryFn: async () => (await callFunction('getAffiliatePayouts', null)).payouts,
  });
}

export function useAffiliateSettings() {
  return useQuery({ queryKey: dashboardKeys.settings, queryFn: () => callFunction('getAffiliateSettings', null) });
}

/** The affiliate's rule in force (docs/product/money.md#operators-groups-rules-and-campaigns). */
export function useAffiliateRule() {
  return useQuery({ queryKey: dashboardKeys.rule, queryFn: () => callFunction('getAffiliateRule', null) });
}

export function useAffiliateCommissions() {
  return useQuery({
    queryKey: dashboardKeys.commissions,
    queryFn: async () => (await callFunction('getAffiliateCommissions', null)).commissions,
  });
}

/** The unpaid earnings by where they stand (the Payments tab: why the next payment is less). */
export function useAffiliateUnpaidEarnings() {
  return useQuery({
    queryKey: dashboardKeys.unpaidEarnings,
    queryFn: () => callFunction('getAffiliateUnpaidEarnings', null),
  });
}
