import type { Platform, LandingType } from '@skanova/shared/landing/schemas';

// One statement records a whole batch of landing-page visits (group commit, BRIEF §6): its text never
// changes, whatever the batch size, because every column travels as one array parameter and
// `unnest` turns the arrays back into rows.
//
// - `input` gives each visit its click id up front (from the identity sequence), so the counted-click
//   key can point at it and the click row can say whether it won, in the same statement.
// - `won` inserts the "one counted click per code per visitor per UTC hour" keys with
//   ON CONFLICT DO NOTHING: the primary key decides, against earlier batches, concurrent batches and
//   twins inside this batch alike (the earlier visit of the batch wins). Keys go in in key order so
//   that two batches in flight on PostgreSQL take their locks in the same order and cannot deadlock.
// - the final INSERT writes the clicks, `counted` true only for the visits whose key was inserted.
//   Foreign keys are checked at the end of the statement, when both rows exist.

/** One visit, validated and ready to store; nothing in it is a raw IP. */
export interface ClickRow {
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

export interface ClickOutcome {
  trackingId: string;
  /** True when this visit is the counted click of its code, visitor and hour. */
  counted: boolean;
}

export const INSERT_CLICKS_SQL = `
WITH input AS MATERIALIZED (
  SELECT nextval((SELECT pg_get_serial_sequence('clicks', 'id'))::regclass) AS id, t.*, rc.id AS referral_code_id
  FROM unnest(
    $1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
    $9::text[], $10::text[], $11::text[], $12::int4[], $13::float8[], $14::int4[], $15::timestamptz[],
    $16::text[], $17::text[], $18::text[], $19::bool[], $20::timestamptz[], $21::timestamptz[]
  ) WITH ORDINALITY AS t(
    tracking_id, type, code, session_id, visitor_key, ip_hash, user_agent, language,
    timezone, screen_resolution, platform, color_depth, device_memory, hardware_concurrency, client_timestamp,
    referrer, path, query, is_bot, created_at, hour_bucket, ord
  )
  LEFT JOIN referral_codes rc ON rc.code = t.code
),
won AS (
  INSERT INTO click_counts (referral_code_id, visitor_key, hour_bucket, click_id)
  SELECT referral_code_id, visitor_key, hour_bucket, id
  FROM input
  WHERE referral_code_id IS NOT NULL AND NOT is_bot
  ORDER BY referral_code_id, visitor_key, hour_bucket, ord
  ON CONFLICT DO NOTHING
  RETURNING click_id
)
INSERT INTO clicks (
  id, tracking_id, type, code, referral_code_id, session_id, visitor_key, ip_hash, user_agent, language,
  timezone, screen_resolution, platform, color_depth, device_memory, hardware_concurrency, client_timestamp,
  referrer, path, query, is_bot, counted, created_at
) OVERRIDING SYSTEM VALUE
SELECT
  i.id, i.tracking_id, i.type, i.code, i.referral_code_id, i.session_id, i.visitor_key, i.ip_hash, i.user_agent,
  i.language, i.timezone, i.screen_resolution, i.platform, i.color_depth, i.device_memory, i.hardware_concurrency,
  i.client_timestamp, i.referrer, i.path, i.query::jsonb, i.is_bot, w.click_id IS NOT NULL, i.created_at
FROM input i LEFT JOIN won w ON w.click_id = i.id
ORDER BY i.ord
RETURNING tracking_id, counted`;

/** The statement's parameters: one array per column, in the order of INSERT_CLICKS_SQL. */
export function clickBatchParams(rows: readonly ClickRow[]): unknown[] {
  const column = <T>(pick: (row: ClickRow) => T) => rows.map(pick);
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
