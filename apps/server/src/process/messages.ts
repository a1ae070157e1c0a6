/** What the cluster's primary sends a worker to shut it down (cluster.ts sends it, serve.ts obeys). */
export const SHUTDOWN_MESSAGE = 'skanova:shutdown';
