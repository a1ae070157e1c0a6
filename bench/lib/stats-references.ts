import type { AffiliateStats } from '@skanova/shared/affiliate/stats';

// What the dashboard benchmark measures beside the statistics, shared by the load generator and its
// server (stats-bench-server.ts, which starts a server when loaded: the load generator must not
// import it, only its types).

/** The server's reference functions: no input, no answer. */
export interface ReferenceFunctions {
  benchNoop: { request: null; response: null };
  benchCaller: { request: null; response: null };
  benchStatsFromRows: { request: null; response: AffiliateStats };
}

/**
 * The function answering at once (also the bare Fastify's route), the one finding its caller first, and
 * the statistics as they were read before the totals (summed from the ledger's entries and the
 * conversions at every request: STATS_FROM_ROWS_SQL).
 */
export const REFERENCE_PATHS = {
  noop: '/api/fn/benchNoop',
  caller: '/api/fn/benchCaller',
  statsFromRows: '/api/fn/benchStatsFromRows',
} as const;
