// What the dashboard benchmark measures beside the statistics, shared by the load generator and its
// server (stats-bench-server.ts, which starts a server when loaded: the load generator must not
// import it, only its types).

/** The server's reference functions: no input, no answer. */
export interface ReferenceFunctions {
  benchNoop: { request: null; response: null };
  benchCaller: { request: null; response: null };
}

/** The function answering at once (also the bare Fastify's route), and the one finding its caller first. */
export const REFERENCE_PATHS = { noop: '/api/fn/benchNoop', caller: '/api/fn/benchCaller' } as const;
