import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CallableFunctions } from '@skanova/shared/callable/functions';
import { callFunction } from '../../lib/callable';

// Server state of the operator console (README.md#architecture: TanStack Query). One key per function and
// filters, under one root per list, so an action re-fetches exactly the lists it changed. A new page
// or filter keeps the previous rows on screen until its own arrive.

type Request<N extends keyof CallableFunctions> = CallableFunctions[N]['request'];

export const adminKeys = {
  overview: ['admin', 'overview'] as const,
  affiliates: ['admin', 'affiliates'] as const,
  affiliate: (affiliateId: string) => ['admin', 'affiliate', affiliateId] as const,
  conversions: ['admin', 'conversions'] as const,
  payouts: ['admin', 'payouts'] as const,
  tickets: ['admin', 'tickets'] as const,
  vitals: ['admin', 'vitals'] as const,
  audit: ['admin', 'audit'] as const,
  review: ['admin', 'review'] as const,
  reviewPolicies: ['admin', 'review', 'policies'] as const,
  groups: ['admin', 'groups'] as const,
  group: (groupId: string) => ['admin', 'groups', groupId] as const,
  campaignRates: (affiliateId: string) => ['admin', 'campaign-rates', affiliateId] as const,
};

export function useAdminOverview() {
  return useQuery({ queryKey: adminKeys.overview, queryFn: () => callFunction('adminGetOverview', {}) });
}

export function useAdminAffiliates(filters: Request<'adminListAffiliates'>) {
  return useQuery({
    queryKey: [...adminKeys.affiliates, filters],
    queryFn: () => callFunction('adminListAffiliates', filters),
    placeholderData: keepPreviousData,
  });
}

export function useAdminAffiliate(affiliateId: string) {
  return useQuery({
    queryKey: adminKeys.affiliate(affiliateId),
    queryFn: () => callFunction('adminGetAffiliate', { affiliateId }),
  });
}

export function useAdminConversions(filters: Request<'adminListConversions'>) {
  return useQuery({
    queryKey: [...adminKeys.conversions, filters],
    queryFn: () => callFunction('adminListConversions', filters),
    placeholderData: keepPreviousData,
  });
}

export function useAdminPayouts(filters: Request<'adminListPayouts'>) {
  return useQuery({
    queryKey: [...adminKeys.payouts, filters],
    queryFn: async () => (await callFunction('adminListPayouts', filters)).payouts,
    placeholderData: keepPreviousData,
  });
}

export function useAdminTickets(filters: Request<'adminListTickets'>) {
  return useQuery({
    queryKey: [...adminKeys.tickets, filters],
    queryFn: () => callFunction('adminListTickets', filters),
    placeholderData: keepPreviousData,
  });
}

export function useAdminWebVitals(days: number) {
  return useQuery({
    queryKey: [...adminKeys.vitals, days],
    queryFn: () => callFunction('adminGetWebVitals', { days }),
    placeholderData: keepPreviousData,
  });
}

export function useAdminAuditLog(filters: Request<'adminListAuditLog'>) {
  return useQuery({
    queryKey: [...adminKeys.audit, filters],
    queryFn: () => callFunction('adminListAuditLog', filters),
    placeholderData: keepPreviousData,
  });
}

export function useAdminReviewCases(filters: Request<'adminListReviewCases'>) {
  return useQuery({
    queryKey: [...adminKeys.review, 'cases', filters],
    queryFn: () => callFunction('adminListReviewCases', filters),
    placeholderData: keepPreviousData,
    // Signals open cases by themselves: the queue is read afresh each time it is shown.
    staleTime: 0,
  });
}

export function useAdminReviewCase(caseId: string) {
  return useQuery({
    queryKey: [...adminKeys.review, 'case', caseId],
    queryFn: () => callFunction('adminGetReviewCase', { caseId }),
    staleTime: 0,
  });
}

export function useAdminReviewPolicies() {
  return useQuery({ queryKey: adminKeys.reviewPolicies, queryFn: () => callFunction('adminGetReviewPolicies', {}) });
}

export function useAdminGroups() {
  return useQuery({
    queryKey: adminKeys.groups,
    queryFn: async () => (await callFunction('adminListGroups', null)).groups,
  });
}

export function useAdminGroupVersions(groupId: string) {
  return useQuery({
    queryKey: adminKeys.group(groupId),
    queryFn: () => callFunction('adminListRuleVersions', { groupId }),
  });
}

export function useAdminCampaignRates(affiliateId: string) {
  return useQuery({
    queryKey: adminKeys.campaignRates(affiliateId),
    queryFn: async () => (await callFunction('adminListCampaignRates', { affiliateId })).rates,
  });
}
