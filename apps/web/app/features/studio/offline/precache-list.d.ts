// The service worker's precache list, written by the build (scripts/build-service-worker.ts).
declare module 'virtual:studio-precache' {
  export const PRECACHE: { url: string; revision: string | null }[];
}
