import { useQuery } from '@tanstack/react-query';
import { callFunction } from '../../lib/callable';

/**
 * The signed-in affiliate's codes, from getAffiliateStats (docs/product/calls-and-data.md#server-functions). Same query key as the
 * dashboard's statistics, so moving between the dashboard and these pages reuses the cached answer
 * and a new code generated on the dashboard shows up here.
 */
export const AFFILIATE_STATS_QUERY_KEY = ['affiliate', 'stats'] as const;

export function useReferralCodes() {
  return useQuery({
    queryKey: AFFILIATE_STATS_QUERY_KEY,
    queryFn: () => callFunction('getAffiliateStats', null),
    select: (stats) => stats.referralCodes,
  });
}
