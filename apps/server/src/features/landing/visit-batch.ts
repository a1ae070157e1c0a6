import type { Platform, LandingType } from '@skanova/shared/landing/schemas';

// One statement records a whole batch of landing-page visits (group commit, docs/product/attribution.md#recording-visits): a call of the
// `record_clicks` function (migrations/0004_record_clicks.sql, where its statement is explained). Its
// text never changes, whatever the batch size, because every column travels as one array parameter;
// the database keeps the plan of the function's statement for the connection.

/** One visit, validated and ready to store; nothing in it is a raw IP. */
export interface VisitRow {
  trackingId: string;
  type: LandingType;
  /** Upper-cased as requested; null when the link had none. */
  code: string | null;
  sessionId: string | null;
  visitorKey: string;
  ipHash: string;
  userAgent: string;
  language: string;
  timezone: string;
  screenResolution: string;
  platform: Platform;
  colorDepth: number | null;
  deviceMemory: number | null;
  hardwareConcurrency: number | null;
  clientTimestamp: string;
  referrer: string;
  path: string;
  query: Record<string, string>;
  isBot: boolean;
  createdAt: Date;
  /** Start of the UTC clock hour of createdAt. */
  hourBucket: Date;
}

export interface VisitOutcome {
  trackingId: string;
  /** True when this visit is the counted click of its code, visitor and hour. */
  counted: boolean;
}

export const RECORD_VISITS_SQL = `SELECT tracking_id, counted FROM record_clicks(
  $1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
  $9::text[], $10::text[], $11::text[], $12::int4[], $13::float8[], $14::int4[], $15::timestamptz[],
  $16::text[], $17::text[], $18::text[], $19::bool[], $20::timestamptz[], $21::timestamptz[]
)`;

/** The statement's parameters: one array per column, in the order of RECORD_VISITS_SQL. */
export function visitBatchParams(rows: readonly VisitRow[]): unknown[] {
  const column = <T>(pick: (row: VisitRow) => T) => rows.map(pick);
  return [
    column((r) => r.trackingId),
    column((r) => r.type),
    column((r) => r.code),
    column((r) => r.sessionId),
    column((r) => r.visitorKey),
    column((r) => r.ipHash),
    column((r) => r.userAgent),
    column((r) => r.language),
    column((r) => r.timezone),
    column((r) => r.screenResolution),
    column((r) => r.platform),
    column((r) => r.colorDepth),
    column((r) => r.deviceMemory),
    column((r) => r.hardwareConcurrency),
    column((r) => r.clientTimestamp),
    column((r) => r.referrer),
    column((r) => r.path),
    column((r) => JSON.stringify(r.query)),
    column((r) => r.isBot),
    column((r) => r.createdAt.toISOString()),
    column((r) => r.hourBucket.toISOString()),
  ];
}
