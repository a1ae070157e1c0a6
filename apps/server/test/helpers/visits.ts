import type { VisitRow } from '../../src/features/landing/visit-batch.ts';
import { hourBucket, newTrackingId } from '../../src/features/landing/visitor.ts';

// Landing-page visits as the page sends them to storePreInstallData (docs/product/calls-and-data.md#visit-record, docs/product/calls-and-data.md#server-functions), and as the click
// writer stores them.

export const IPHONE_USER_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

export interface VisitOverrides {
  code: string | null;
  sessionId: string;
  userAgent?: string;
  timestamp?: string;
  query?: Record<string, string>;
}

/** The `data` of a storePreInstallData call from an iPhone opening /ref/CODE (or /download without a code). */
export function createVisit({ code, sessionId, userAgent, timestamp, query }: VisitOverrides) {
  const path = code === null ? '/download' : `/ref/${code}`;
  return {
    fingerprint: {
      userAgent: userAgent ?? IPHONE_USER_AGENT,
      language: 'fr-FR',
      timezone: 'Europe/Paris',
      screenResolution: '390x844',
      platform: 'ios',
      colorDepth: 24,
      deviceMemory: null,
      hardwareConcurrency: 6,
      sessionId,
      timestamp: timestamp ?? new Date().toISOString(),
      referrer: 'direct',
    },
    deeplink: { type: code === null ? 'download' : 'ref', code, fullPath: path },
    path,
    query: query ?? {},
  };
}

/**
 * A visit as the visit writer stores it: a desktop opening /download without a code at `at` (now by
 * default), a new tracking id and visitor each time; `overrides` change any column.
 */
export function visitRow({ at = new Date(), ...overrides }: Partial<VisitRow> & { at?: Date } = {}): VisitRow {
  return {
    trackingId: newTrackingId(),
    type: 'download',
    code: null,
    sessionId: null,
    visitorKey: `visitor-${Math.random()}`,
    ipHash: 'ip-hash',
    userAgent: 'Mozilla/5.0',
    language: 'en-GB',
    timezone: 'Europe/London',
    screenResolution: '1920x1080',
    platform: 'desktop',
    colorDepth: 24,
    deviceMemory: 8,
    hardwareConcurrency: 8,
    clientTimestamp: at.toISOString(),
    referrer: 'direct',
    path: '/download',
    query: {},
    isBot: false,
    createdAt: at,
    hourBucket: hourBucket(at),
    ...overrides,
  };
}
